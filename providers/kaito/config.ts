// KAITO's InferenceProviderConfig (seed 001 §3.9, capabilities per §4.5).
//
// Selection rules reproduce seed §4.4 together with the other built-ins: no GPU or llama.cpp → KAITO
// (priority 100, and KAITO is then the only provider whose capabilities fit anyway). The seed's own
// rule `!has(spec.resources.gpu) || ...` raises "no such key" in CEL when `spec.resources` itself is
// omitted, which §4.4 says must count as "no GPU"; the first rule therefore guards `spec.resources`
// too. The last rule keeps KAITO selectable for GPU vLLM when no better provider is ready; Dynamo's
// rules outrank it whenever Dynamo is ready.

import { API_VERSION, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import type { InferenceProviderConfig } from '../../api/types.ts';
import type { ProviderResourceType } from '../contract.ts';
import { KAITO_OVERRIDE_SCHEMA } from './overrides.ts';

export const KAITO_NAME = 'kaito';
export const KAITO_DISPLAY_NAME = 'KAITO';

export const KAITO_RESOURCE: ProviderResourceType = {
  group: 'kaito.sh',
  kind: 'Workspace',
  plural: 'workspaces',
  versions: ['v1beta1'],
};

export const KAITO_CONFIG: InferenceProviderConfig = {
  apiVersion: API_VERSION,
  kind: PROVIDER_CONFIG_KIND,
  metadata: { name: KAITO_NAME },
  spec: {
    capabilities: {
      engines: ['vllm', 'llamacpp'],
      servingModes: ['aggregated'],
      cpuSupport: true,
      gpuSupport: true,
    },
    selectionRules: [
      { condition: '!has(spec.resources) || !has(spec.resources.gpu) || spec.resources.gpu.count == 0', priority: 100 },
      { condition: "spec.engine.type == 'llamacpp'", priority: 100 },
      { condition: 'true', priority: 10 },
    ],
    documentation: 'https://github.com/kubeairunway/kaito-provider',
    // Published so admission checks spec.provider.overrides without provider code (api/override-schema-shape.ts).
    overrideSchema: KAITO_OVERRIDE_SCHEMA,
  },
};
