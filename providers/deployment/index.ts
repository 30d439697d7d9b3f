import type { ProviderDefinition } from '../contract.ts';
import { CLAIM_OWNED_KIND } from '../shared/storage.ts';
import { deploymentCompatibility } from './compatibility.ts';
import { DEPLOYMENT_CONFIG, DEPLOYMENT_DISPLAY_NAME, DEPLOYMENT_PROVIDER_NAME, DEPLOYMENT_RESOURCE } from './config.ts';
import { DEPLOYMENT_OVERRIDE_SCHEMA } from './overrides.ts';
import { renderDeployment } from './render.ts';
import { mapDeploymentStatus } from './status.ts';
import { deploymentServingEndpoint } from './serving.ts';

export const deploymentProvider: ProviderDefinition = {
  name: DEPLOYMENT_PROVIDER_NAME,
  displayName: DEPLOYMENT_DISPLAY_NAME,
  config: DEPLOYMENT_CONFIG,
  resource: DEPLOYMENT_RESOURCE,
  overrideSchema: DEPLOYMENT_OVERRIDE_SCHEMA,
  ownedKinds: [
    { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', plural: 'services' },
    CLAIM_OWNED_KIND,
  ],
  // Status reads every role's Deployment and the pods (why a replica is not ready), read-only.
  statusReads: [
    { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments' },
    { apiVersion: 'v1', kind: 'Pod', plural: 'pods' },
  ],
  compatibility: deploymentCompatibility,
  render: renderDeployment,
  servingEndpoint: deploymentServingEndpoint,
  mapStatus: mapDeploymentStatus,
};
