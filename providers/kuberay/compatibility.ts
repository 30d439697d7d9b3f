// KubeRay compatibility: the seed's rows (llamacpp, sglang, trtllm, GPU required) follow from the
// capabilities. Ray Serve loads the model named by model.id, so a custom-source deployment must still
// say where the model lives inside its image.

import type { ModelDeployment } from '../../api/types.ts';
import type { CompatibilityResult } from '../contract.ts';
import { checkCompatibility } from '../shared/capability-check.ts';
import { KUBERAY_CONFIG, KUBERAY_DISPLAY_NAME } from './config.ts';
import { KUBERAY_OVERRIDE_SCHEMA } from './overrides.ts';

export const kuberayMessages = {
  customSourceNeedsModelPath: 'KubeRay requires model.id (the model path inside the image) when model.source is custom',
} as const;

export function kuberayCompatibility(md: ModelDeployment): CompatibilityResult {
  return checkCompatibility(
    md,
    { displayName: KUBERAY_DISPLAY_NAME, config: KUBERAY_CONFIG, overrideSchema: KUBERAY_OVERRIDE_SCHEMA },
    (spec) => ({ errors: spec.source === 'custom' && spec.modelId === undefined ? [kuberayMessages.customSourceNeedsModelPath] : [] }),
  );
}
