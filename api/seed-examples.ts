// The seed's example specs (001 §4.2) as plain objects, each returned fresh: shared by the tests and by
// `kubeairunway conformance`, which renders them (through the golden inputs) against a cluster's CRDs.

import type { ModelDeploymentSpec } from './types.ts';

/** Example 1: GPU vLLM, aggregated. */
export function gpuVllmSpec(): ModelDeploymentSpec {
  return {
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface' },
    engine: { type: 'vllm', contextLength: 8192 },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    resources: { gpu: { count: 1 }, memory: '32Gi' },
    secrets: { huggingFaceToken: 'hf-token' },
  };
}

/** Example 2: CPU llama.cpp with a GGUF model. */
export function cpuLlamacppSpec(): ModelDeploymentSpec {
  return {
    model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf', source: 'huggingface' },
    engine: { type: 'llamacpp' },
    serving: { mode: 'aggregated' },
    scaling: { replicas: 1 },
    resources: { gpu: { count: 0 }, memory: '16Gi', cpu: '8' },
    image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
  };
}

/** Example 3: disaggregated prefill/decode on Dynamo with KV routing. */
export function disaggregatedSpec(): ModelDeploymentSpec {
  return {
    model: { id: 'meta-llama/Llama-3.1-70B-Instruct', source: 'huggingface' },
    provider: {
      name: 'dynamo',
      overrides: { routerMode: 'kv', frontend: { replicas: 2, resources: { cpu: '4', memory: '8Gi' } } },
    },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: {
      prefill: { replicas: 2, gpu: { count: 4 }, memory: '128Gi' },
      decode: { replicas: 4, gpu: { count: 2 }, memory: '64Gi' },
    },
    secrets: { huggingFaceToken: 'hf-token' },
  };
}
