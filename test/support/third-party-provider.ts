// A third-party provider defined entirely in the tests: its own kind, CRD, selection rules and worker.
// It shows that the core needs no change for a provider it has never heard of. Each test gives it a
// name (and so a CRD group) of its own, so nothing else in the shared cluster owns that CRD.
import { API_VERSION, MANAGED_BY_LABEL, MANAGED_BY_VALUE, MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { NO_OVERRIDES } from '../../api/overrides.ts';
import type { ModelDeployment, SelectionRule } from '../../api/types.ts';
import type { ProviderDefinition, UnifiedStatus } from '../../providers/contract.ts';
import { ownedObjectSelector } from '../../providers/shared/metadata.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';

export interface ThirdPartyProvider {
  provider: ProviderDefinition;
  crd: AnyObject;
  crdName: string;
  /** Where its resources live, for reading them in tests. */
  resource: { group: string; version: string; plural: string };
}

const KIND = 'ModelInference';
const PLURAL = 'modelinferences';

/** The provider's upstream status: `status.ready` → Running, `status.error` → Failed, else Deploying. */
function mapStatus(upstream: unknown): UnifiedStatus {
  const obj = upstream as { status?: { ready?: boolean; error?: string }; spec?: { replicas?: number }; metadata?: { name?: string } } | undefined;
  if (!obj) return { phase: 'Pending', message: `${KIND} not created yet`, replicas: { desired: 0, ready: 0 }, conditions: [] };
  const desired = obj.spec?.replicas ?? 1;
  const ready = (status: 'True' | 'False', reason: string, message: string) => [{ type: 'Ready', status, reason, message }];
  if (obj.status?.error) return { phase: 'Failed', message: obj.status.error, replicas: { desired, ready: 0 }, conditions: ready('False', 'DeploymentFailed', obj.status.error) };
  if (obj.status?.ready) {
    return { phase: 'Running', replicas: { desired, ready: desired }, endpoint: { service: obj.metadata?.name ?? '', port: 9000 }, conditions: ready('True', 'DeploymentReady', 'All replicas are ready') };
  }
  return { phase: 'Deploying', message: 'Warming up', replicas: { desired, ready: 0 }, conditions: ready('False', 'DeploymentInProgress', 'Warming up') };
}

export function thirdPartyProvider(name: string, selectionRules: SelectionRule[] = []): ThirdPartyProvider {
  const group = `${name}.example.com`;
  const crdName = `${PLURAL}.${group}`;
  const crd: AnyObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind: KIND, listKind: `${KIND}List`, plural: PLURAL, singular: 'modelinference' },
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
  const provider: ProviderDefinition = {
    name,
    displayName: name,
    config: {
      apiVersion: API_VERSION,
      kind: PROVIDER_CONFIG_KIND,
      metadata: { name },
      spec: { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], cpuSupport: false, gpuSupport: true }, selectionRules, documentation: `https://example.com/${name}` },
    },
    resource: { group, kind: KIND, plural: PLURAL, versions: ['v1'] },
    overrideSchema: NO_OVERRIDES,
    ownedKinds: [{ apiVersion: `${group}/v1`, kind: KIND, plural: PLURAL }],
    compatibility: (md: ModelDeployment) =>
      md.spec.engine?.type === 'vllm' ? { compatible: true, errors: [], warnings: [] } : { compatible: false, errors: [`${name} does not support ${md.spec.engine?.type} engine`], warnings: [] },
    servingEndpoint: (md) => ({ service: md.metadata.name ?? '', port: 8000, pods: { labels: { app: md.metadata.name ?? '' }, port: 8000 } }),
    render: (md, context) => ({
      objects: [
        {
          apiVersion: context.apiVersion,
          kind: KIND,
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
    mapStatus,
  };
  return { provider, crd, crdName, resource: { group, version: 'v1', plural: PLURAL } };
}
