// KAITO compatibility: the seed's table (sglang, trtllm, disaggregated) comes from the capabilities;
// two rules follow from how KAITO runs models. llama.cpp has no default image (seed §4.15 image table),
// and vLLM runs from a KAITO preset that downloads the model from HuggingFace, so a model pre-loaded
// in an image (source custom) needs the template path, which only llama.cpp uses.

import type { ModelDeployment } from '../../api/types.ts';
import type { CompatibilityResult } from '../contract.ts';
import { checkCompatibility } from '../shared/capability-check.ts';
import { modelStorage } from '../shared/storage.ts';
import { KAITO_CONFIG, KAITO_DISPLAY_NAME } from './config.ts';
import { KAITO_OVERRIDE_SCHEMA } from './overrides.ts';

export const kaitoMessages = {
  llamacppNeedsImage: 'KAITO requires spec.image for the llamacpp engine (there is no default llama.cpp image)',
  customSourceNeedsLlamacpp: 'KAITO runs vllm only from HuggingFace models (model.source custom is not supported with vllm)',
  // A preset Workspace has no pod template (inference.preset holds only the preset's name and options,
  // and inference.template may not be set beside it): no volume can be mounted, so say so rather than
  // render a Workspace without the storage the user asked for.
  presetCannotMountStorage:
    'KAITO cannot mount spec.model.storage for vllm: a preset Workspace (inference.preset) has no field for volumes; use engine llamacpp (a pod template) or another provider',
} as const;

export function kaitoCompatibility(md: ModelDeployment): CompatibilityResult {
  return checkCompatibility(
    md,
    { displayName: KAITO_DISPLAY_NAME, config: KAITO_CONFIG, overrideSchema: KAITO_OVERRIDE_SCHEMA },
    (spec) => {
      const errors: string[] = [];
      if (spec.engine === 'llamacpp' && spec.image === undefined) errors.push(kaitoMessages.llamacppNeedsImage);
      if (spec.engine === 'vllm' && spec.source === 'custom') errors.push(kaitoMessages.customSourceNeedsLlamacpp);
      if (spec.engine === 'vllm' && modelStorage(md).volumes.length > 0) errors.push(kaitoMessages.presetCannotMountStorage);
      return { errors };
    },
  );
}
