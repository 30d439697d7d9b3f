// NVIDIA Dynamo's InferenceProviderConfig (capabilities per seed 001 §4.5).
//
// Selection rules reproduce seed §4.4 together with the other built-ins: sglang and trtllm → Dynamo
// (100, it is the only provider for them), disaggregated → Dynamo (90, ahead of every other
// disaggregated-capable provider), any other GPU deployment → Dynamo (50, the GPU default, ahead of
// KAITO's fallback rule). CPU deployments never reach these rules: Dynamo has no CPU support, so the
// capability filter drops it first.

import { API_VERSION, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import type { InferenceProviderConfig } from '../../api/types.ts';
import type { ProviderResourceType } from '../contract.ts';
import { DYNAMO_OVERRIDE_SCHEMA } from './overrides.ts';

export const DYNAMO_NAME = 'dynamo';
export const DYNAMO_DISPLAY_NAME = 'Dynamo';

export const DYNAMO_RESOURCE: ProviderResourceType = {
  group: 'nvidia.com',
  kind: 'DynamoGraphDeployment',
  plural: 'dynamographdeployments',
  // v1beta1 first: today's CRD serves it as the storage version and marks v1alpha1 deprecated (every
  // v1alpha1 request draws a warning). v1alpha1 stays for clusters whose operator predates v1beta1.
  versions: ['v1beta1', 'v1alpha1'],
};

export const DYNAMO_CONFIG: InferenceProviderConfig = {
  apiVersion: API_VERSION,
  kind: PROVIDER_CONFIG_KIND,
  metadata: { name: DYNAMO_NAME },
  spec: {
    capabilities: {
      engines: ['vllm', 'sglang', 'trtllm'],
      servingModes: ['aggregated', 'disaggregated'],
      cpuSupport: false,
      gpuSupport: true,
    },
    selectionRules: [
      { condition: "spec.engine.type == 'trtllm'", priority: 100 },
      { condition: "spec.engine.type == 'sglang'", priority: 100 },
      { condition: "has(spec.serving) && spec.serving.mode == 'disaggregated'", priority: 90 },
      { condition: 'has(spec.resources) && has(spec.resources.gpu) && spec.resources.gpu.count > 0', priority: 50 },
    ],
    documentation: 'https://github.com/kubeairunway/dynamo-provider',
    // Published so admission checks spec.provider.overrides without provider code (api/override-schema-shape.ts).
    overrideSchema: DYNAMO_OVERRIDE_SCHEMA,
  },
};
