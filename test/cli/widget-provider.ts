// A third-party provider defined in the test, with a CRD of its own under a group unique to the run:
// installing that CRD late is what makes a deployment wait ("CRD not installed"), and nothing else in
// the shared cluster owns it.

import { API_VERSION, MANAGED_BY_LABEL, MANAGED_BY_VALUE, MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { NO_OVERRIDES } from '../../api/overrides.ts';
import type { ProviderDefinition } from '../../providers/contract.ts';
import { ownedObjectSelector } from '../../providers/shared/metadata.ts';

export interface Widget {
  provider: ProviderDefinition;
  crd: Record<string, unknown>;
  crdName: string;
  resource: { group: string; version: string; plural: string };
}

export function widgetProvider(suffix: string): Widget {
  const name = `widget-${suffix}`;
  const group = `${name}.example.com`;
  const plural = 'widgetinferences';
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind: 'WidgetInference', listKind: 'WidgetInferenceList', plural, singular: 'widgetinference' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          },
        },
      ],
    },
  };
  const provider: ProviderDefinition = {
    name,
    displayName: 'Widget',
    config: {
      apiVersion: API_VERSION,
      kind: PROVIDER_CONFIG_KIND,
      metadata: { name },
      // Never chosen by the selector: deployments name it explicitly.
      spec: { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], cpuSupport: true, gpuSupport: true }, selectionRules: [{ condition: 'false', priority: 1 }] },
    },
    resource: { group, kind: 'WidgetInference', plural, versions: ['v1'] },
    overrideSchema: NO_OVERRIDES,
    ownedKinds: [{ apiVersion: `${group}/v1`, kind: 'WidgetInference', plural }],
    compatibility: () => ({ compatible: true, errors: [], warnings: [] }),
    render: (md, context) => ({
      objects: [
        {
          apiVersion: context.apiVersion,
          kind: 'WidgetInference',
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
    mapStatus: (upstream) =>
      upstream
        ? { phase: 'Deploying', message: 'Widget is warming up', replicas: { desired: 1, ready: 0 }, conditions: [{ type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Widget is warming up' }] }
        : { phase: 'Pending', message: 'WidgetInference not created yet', replicas: { desired: 0, ready: 0 }, conditions: [] },
  };
  return { provider, crd, crdName: `${plural}.${group}`, resource: { group, version: 'v1', plural } };
}
