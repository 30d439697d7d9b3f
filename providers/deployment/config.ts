// The `deployment` provider's InferenceProviderConfig: plain Kubernetes workloads (a Deployment and a
// Service per serving role), so it needs no operator and no CRD.
//
// It ships WITHOUT selection rules, like KubeRay: the selector only considers providers with at least
// one matching rule, so auto-selection among KAITO, Dynamo and KubeRay gives the seed's answers (§4.4)
// whether or not this provider is installed. Users reach it by naming it (`spec.provider.name:
// deployment`), or operators add rules to this config (e.g. `{condition: "true", priority: 5}` to make it
// the fallback when no operator-backed provider fits).

import { API_VERSION, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import type { InferenceProviderConfig } from '../../api/types.ts';
import type { ProviderResourceType } from '../contract.ts';
import { DEPLOYMENT_OVERRIDE_SCHEMA } from './overrides.ts';

export const DEPLOYMENT_PROVIDER_NAME = 'deployment';
export const DEPLOYMENT_DISPLAY_NAME = 'Kubernetes Deployment';

export const DEPLOYMENT_RESOURCE: ProviderResourceType = {
  group: 'apps',
  kind: 'Deployment',
  plural: 'deployments',
  versions: ['v1'],
  builtin: true,
};

export const DEPLOYMENT_CONFIG: InferenceProviderConfig = {
  apiVersion: API_VERSION,
  kind: PROVIDER_CONFIG_KIND,
  metadata: { name: DEPLOYMENT_PROVIDER_NAME },
  spec: {
    capabilities: {
      engines: ['vllm', 'sglang', 'llamacpp'],
      servingModes: ['aggregated', 'disaggregated'],
      cpuSupport: true,
      gpuSupport: true,
    },
    selectionRules: [],
    documentation: 'https://github.com/kubeairunway/kubeairunway/blob/main/docs/providers.md',
    // Published so admission checks spec.provider.overrides without provider code (api/override-schema-shape.ts).
    overrideSchema: DEPLOYMENT_OVERRIDE_SCHEMA,
  },
};
