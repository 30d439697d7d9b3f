// The invalid examples of the seed's schema-validation table (seed 001 §8, seed 000 "Validation
// Webhook"), each with the one message the seed gives for it. Shared by the unit tests of review.ts and
// the kubectl tests on the local stack. Messages are written out, not imported, so a changed text fails.

import type { ModelDeploymentSpec } from '../../api/types.ts';

export interface SeedCase {
  rule: string;
  spec: ModelDeploymentSpec;
  message: string;
}

const model = { id: 'meta-llama/Llama-3.1-8B-Instruct' };

function disaggregated(): ModelDeploymentSpec {
  return {
    model,
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: {
      prefill: { replicas: 1, gpu: { count: 2 }, memory: '64Gi' },
      decode: { replicas: 1, gpu: { count: 1 }, memory: '32Gi' },
    },
  };
}

export function seedCases(): SeedCase[] {
  const withoutDecode = disaggregated();
  delete withoutDecode.scaling!.decode;
  const noPrefillGpu = disaggregated();
  delete noPrefillGpu.scaling!.prefill!.gpu;
  const noDecodeGpu = disaggregated();
  noDecodeGpu.scaling!.decode!.gpu = { type: 'nvidia.com/gpu' };
  return [
    {
      rule: 'engine: vllm with gpu.count: 0',
      spec: { model, engine: { type: 'vllm' }, resources: { gpu: { count: 0 } } },
      message: 'vLLM engine requires GPU (set resources.gpu.count > 0)',
    },
    {
      rule: 'engine: sglang with gpu.count: 0',
      spec: { model, engine: { type: 'sglang' }, resources: { gpu: { count: 0 } } },
      message: 'SGLang engine requires GPU (set resources.gpu.count > 0)',
    },
    {
      rule: 'engine: trtllm with gpu.count: 0',
      spec: { model, engine: { type: 'trtllm' }, resources: { gpu: { count: 0 } } },
      message: 'TensorRT-LLM engine requires GPU (set resources.gpu.count > 0)',
    },
    {
      rule: 'mode: disaggregated with spec.resources.gpu',
      spec: { ...disaggregated(), resources: { gpu: { count: 1 } } },
      message: 'Cannot specify both resources.gpu and scaling.prefill/decode',
    },
    {
      rule: 'mode: disaggregated without scaling.prefill or scaling.decode',
      spec: withoutDecode,
      message: 'Disaggregated mode requires scaling.prefill and scaling.decode',
    },
    {
      rule: 'mode: disaggregated without scaling.prefill.gpu.count',
      spec: noPrefillGpu,
      message: 'Disaggregated mode requires scaling.prefill.gpu.count',
    },
    {
      rule: 'mode: disaggregated without scaling.decode.gpu.count',
      spec: noDecodeGpu,
      message: 'Disaggregated mode requires scaling.decode.gpu.count',
    },
    {
      rule: 'missing engine.type',
      spec: { model, engine: { contextLength: 4096 }, resources: { gpu: { count: 1 } } },
      message: 'engine.type is required',
    },
    {
      rule: 'missing model.id when source: huggingface',
      spec: { model: { source: 'huggingface' }, engine: { type: 'llamacpp' } },
      message: 'model.id is required when source is huggingface',
    },
  ];
}

/** The seed's one warning: servedName with a custom source. */
export function servedNameWithCustomSource(): ModelDeploymentSpec {
  return { model: { source: 'custom', servedName: 'my-model' }, engine: { type: 'llamacpp' }, image: 'registry.example/model:1' };
}

export const SERVED_NAME_WARNING = 'servedName is ignored for custom source';

export function providerNotInstalled(provider: string): { spec: ModelDeploymentSpec; message: string } {
  return {
    spec: { model, provider: { name: provider }, engine: { type: 'llamacpp' } },
    message: `Provider '${provider}' CRD not installed in cluster`,
  };
}

/** A valid spec: CPU llama.cpp, any provider that runs on CPU. */
export function validSpec(): ModelDeploymentSpec {
  return { model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf' }, engine: { type: 'llamacpp' }, resources: { gpu: { count: 0 } } };
}
