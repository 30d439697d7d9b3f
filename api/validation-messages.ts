// Exact texts of the seed's validation tables (seed 001 §8, seed 000 "Validation Webhook"). The
// admission webhook, reconcile-time validation and the CRD's CEL rules all take their words from here.

import type { EngineType } from './types.ts';

/** Engines that cannot run without a GPU, with the name the seed's messages use. */
export const GPU_ENGINES: Readonly<Partial<Record<EngineType, string>>> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  trtllm: 'TensorRT-LLM',
};

export const ValidationMessage = {
  engineRequiresGpu: (engineDisplayName: string): string =>
    `${engineDisplayName} engine requires GPU (set resources.gpu.count > 0)`,
  disaggregatedWithResourcesGpu: 'Cannot specify both resources.gpu and scaling.prefill/decode',
  disaggregatedRequiresPrefillAndDecode: 'Disaggregated mode requires scaling.prefill and scaling.decode',
  disaggregatedRequiresPrefillGpu: 'Disaggregated mode requires scaling.prefill.gpu.count',
  disaggregatedRequiresDecodeGpu: 'Disaggregated mode requires scaling.decode.gpu.count',
  engineTypeRequired: 'engine.type is required',
  modelIdRequired: 'model.id is required when source is huggingface',
  providerCrdNotInstalled: (provider: string): string => `Provider '${provider}' CRD not installed in cluster`,
  // Warnings
  servedNameIgnoredForCustom: 'servedName is ignored for custom source',
  contextLengthIgnoredForTrtllm:
    'engine.contextLength is ignored for TensorRT-LLM (context length is fixed when the engine is built)',
  trustRemoteCodeNotApplicable: (engine: string): string => `engine.trustRemoteCode does not apply to ${engine} and is ignored`,
} as const;
