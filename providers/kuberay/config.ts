// KubeRay's InferenceProviderConfig (capabilities per seed 001 §4.5). KubeRay is never auto-selected
// (seed §4.4 note): it ships without selection rules, and the selector only considers providers with at
// least one matching rule, so users reach it by naming it in spec.provider.name.

import { API_VERSION, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import type { InferenceProviderConfig } from '../../api/types.ts';
import type { ProviderResourceType } from '../contract.ts';
import { KUBERAY_OVERRIDE_SCHEMA } from './overrides.ts';

export const KUBERAY_NAME = 'kuberay';
export const KUBERAY_DISPLAY_NAME = 'KubeRay';

export const KUBERAY_RESOURCE: ProviderResourceType = {
  group: 'ray.io',
  kind: 'RayService',
  plural: 'rayservices',
  versions: ['v1'],
};

export const KUBERAY_CONFIG: InferenceProviderConfig = {
  apiVersion: API_VERSION,
  kind: PROVIDER_CONFIG_KIND,
  metadata: { name: KUBERAY_NAME },
  spec: {
    capabilities: {
      engines: ['vllm'],
      servingModes: ['aggregated', 'disaggregated'],
      cpuSupport: false,
      gpuSupport: true,
    },
    selectionRules: [],
    documentation: 'https://github.com/kubeairunway/kuberay-provider',
    // Published so admission checks spec.provider.overrides without provider code (api/override-schema-shape.ts).
    overrideSchema: KUBERAY_OVERRIDE_SCHEMA,
  },
};
