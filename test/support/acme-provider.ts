// A third-party provider defined entirely in the tests: its own kind, CRD, selection rule and worker.
// It shows that the core needs no change for a provider it has never heard of.
import { API_VERSION, MANAGED_BY_LABEL, MANAGED_BY_VALUE, MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { NO_OVERRIDES } from '../../api/overrides.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { ProviderDefinition, UnifiedStatus } from '../../providers/contract.ts';
import { ownedObjectSelector } from '../../providers/shared/metadata.ts';

export const ACME_GROUP = 'acme.example.com';

export const acmeCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `acmeinferences.${ACME_GROUP}` },
  spec: {
    group: ACME_GROUP,
    scope: 'Namespaced',
    names: { kind: 'AcmeInference', listKind: 'AcmeInferenceList', plural: 'acmeinferences', singular: 'acmeinference' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      },
    ],
  },
};

function mapAcmeStatus(upstream: unknown): UnifiedStatus {
  const obj = upstream as { status?: { ready?: boolean; error?: string }; spec?: { replicas?: number }; metadata?: { name?: string } } | undefined;
  const desired = obj?.spec?.replicas ?? 1;
  if (!obj) return { phase: 'Pending', message: 'AcmeInference not created yet', replicas: { desired: 0, ready: 0 }, conditions: [] };
  const ready = (status: 'True' | 'False', reason: string, message: string) => [{ type: 'Ready', status, reason, message }];
  if (obj.status?.error) return { phase: 'Failed', message: obj.status.error, replicas: { desired, ready: 0 }, conditions: ready('False', 'DeploymentFailed', obj.status.error) };
  if (obj.status?.ready) {
    return { phase: 'Running', replicas: { desired, ready: desired }, endpoint: { service: obj.metadata?.name ?? '', port: 9000 }, conditions: ready('True', 'DeploymentReady', 'All replicas are ready') };
  }
  return { phase: 'Deploying', message: 'Acme is warming up', replicas: { desired, ready: 0 }, conditions: ready('False', 'DeploymentInProgress', 'Acme is warming up') };
}

export const acmeProvider: ProviderDefinition = {
  name: 'acme',
  displayName: 'Acme',
  config: {
    apiVersion: API_VERSION,
    kind: PROVIDER_CONFIG_KIND,
    metadata: { name: 'acme' },
    spec: {
      capabilities: { engines: ['vllm'], servingModes: ['aggregated'], cpuSupport: false, gpuSupport: true },
      selectionRules: [{ condition: "spec.model.id.startsWith('acme/')", priority: 1000 }],
      documentation: 'https://example.com/acme-provider',
    },
  },
  resource: { group: ACME_GROUP, kind: 'AcmeInference', plural: 'acmeinferences', versions: ['v1'] },
  overrideSchema: NO_OVERRIDES,
  ownedKinds: [{ apiVersion: `${ACME_GROUP}/v1`, kind: 'AcmeInference', plural: 'acmeinferences' }],
  compatibility: (md: ModelDeployment) =>
    md.spec.engine?.type === 'vllm' ? { compatible: true, errors: [], warnings: [] } : { compatible: false, errors: [`Acme does not support ${md.spec.engine?.type} engine`], warnings: [] },
  render: (md, context) => ({
    objects: [
      {
        apiVersion: context.apiVersion,
        kind: 'AcmeInference',
        metadata: {
          name: md.metadata.name!,
          namespace: md.metadata.namespace!,
          labels: { ...ownedObjectSelector(md.metadata.name!), [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
          ownerReferences: [{ apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, name: md.metadata.name!, uid: md.metadata.uid!, controller: true, blockOwnerDeletion: true }],
        },
        spec: { model: md.spec.model?.id, replicas: md.spec.scaling?.replicas ?? 1 },
      },
    ],
    warnings: [],
  }),
  mapStatus: mapAcmeStatus,
};
