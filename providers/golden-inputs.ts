// The ModelDeployments behind the providers' golden files (providers/*/__golden__): the seed's examples
// and the variants that set every knob. The render tests pin what each provider makes of them;
// `kubeairunway conformance` sends the same renderings to a cluster's installed CRDs, so a golden file
// that a real CRD would refuse or prune cannot go unnoticed. golden-inputs.test.ts holds this list and
// the golden files to each other: every file is the rendering of one input here.

import { API_VERSION, MODEL_DEPLOYMENT_KIND } from '../api/constants.ts';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../api/seed-examples.ts';
import type { ModelDeployment, ModelDeploymentSpec, ObjectMeta } from '../api/types.ts';

export function modelDeployment(name: string, spec: ModelDeploymentSpec, metadata: Partial<ObjectMeta> = {}): ModelDeployment {
  return {
    apiVersion: API_VERSION,
    kind: MODEL_DEPLOYMENT_KIND,
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...metadata },
    spec,
  };
}

/** Seed 001 Example 1 (llama-8b, GPU vLLM, aggregated). */
export function example1(): ModelDeployment {
  return modelDeployment('llama-8b', gpuVllmSpec());
}

/** Seed 001 Example 2 (gemma-cpu, llama.cpp on CPU). */
export function example2(): ModelDeployment {
  return modelDeployment('gemma-cpu', cpuLlamacppSpec());
}

/** Seed 001 Example 3 (llama-70b-pd, disaggregated, explicit Dynamo). */
export function example3(): ModelDeployment {
  return modelDeployment('llama-70b-pd', disaggregatedSpec());
}

/** A spec with every optional knob set, for variant goldens. */
export function withEverything(spec: ModelDeploymentSpec): ModelDeploymentSpec {
  return {
    ...spec,
    model: { ...spec.model, servedName: 'chat' },
    engine: { ...spec.engine, trustRemoteCode: true, args: { quantization: 'awq', 'gpu-memory-utilization': '0.9', 'enforce-eager': '' } },
    env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }, { name: 'HF_HOME', value: '/cache' }],
    podTemplate: { metadata: { labels: { team: 'ml', app: 'chat' }, annotations: { 'prometheus.io/scrape': 'true' } } },
    nodeSelector: { pool: 'gpu', 'kubernetes.io/arch': 'amd64' },
    tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    secrets: { huggingFaceToken: 'hf-token' },
  };
}

/**
 * Storage of every kind: a model cache the controller creates (defaults: /model-cache, ReadWriteMany,
 * the cluster's default class), a compilation cache on a class of its own, and a read-only claim of the
 * user's at a path of its own. Listed out of order: rendering sorts them.
 */
export function withStorage(spec: ModelDeploymentSpec): ModelDeploymentSpec {
  return {
    ...spec,
    model: {
      ...spec.model,
      storage: {
        volumes: [
          { name: 'weights', claimName: 'team-weights', mountPath: '/data/weights', readOnly: true },
          { name: 'cache', purpose: 'modelCache', size: '200Gi' },
          { name: 'compile', purpose: 'compilationCache', size: '20Gi', storageClassName: 'fast-ssd', accessMode: 'ReadWriteOnce' },
        ],
      },
    },
  };
}

export interface GoldenInput {
  /** The provider that renders it (`deployment`, `dynamo`, `kaito`, `kuberay`). */
  provider: string;
  /** Short name, as the golden file is named. */
  name: string;
  md: ModelDeployment;
}

const kuberaySpec = (): ModelDeploymentSpec => ({ ...gpuVllmSpec(), provider: { name: 'kuberay' } });

/** The deployment provider's inputs: each engine and mode it renders, named explicitly (it has no selection rules). */
export function deploymentGoldenInputs(): GoldenInput[] {
  const named = (spec: ModelDeploymentSpec, overrides?: Record<string, unknown>): ModelDeploymentSpec => ({ ...spec, provider: { name: 'deployment', ...(overrides ? { overrides } : {}) } });
  const { image: _seedImage, ...cpuGguf } = cpuLlamacppSpec();
  const disaggregated = disaggregatedSpec();
  return [
    { provider: 'deployment', name: 'vllm-aggregated', md: modelDeployment('llama-8b', named(gpuVllmSpec())) },
    {
      provider: 'deployment',
      name: 'vllm-everything',
      md: modelDeployment('full', named({ ...withEverything(gpuVllmSpec()), image: 'registry.example.com/vllm:custom' }, { startupTimeoutSeconds: 3600, shmSize: '16Gi', serviceAccountName: 'models' })),
    },
    { provider: 'deployment', name: 'vllm-disaggregated', md: modelDeployment('llama-70b-pd', named(disaggregated)) },
    { provider: 'deployment', name: 'sglang-aggregated', md: modelDeployment('sg', named({ ...gpuVllmSpec(), engine: { type: 'sglang', contextLength: 4096, trustRemoteCode: true } })) },
    { provider: 'deployment', name: 'llamacpp-cpu-huggingface', md: modelDeployment('gemma-cpu', named({ ...cpuGguf, model: { ...cpuGguf.model, servedName: 'gemma' }, engine: { type: 'llamacpp', contextLength: 4096 } })) },
    {
      provider: 'deployment',
      name: 'llamacpp-local-path',
      md: modelDeployment('tiny', named({ model: { id: '/models/tiny.gguf', source: 'custom' }, engine: { type: 'llamacpp' }, resources: { cpu: '1', memory: '1Gi' } })),
    },
    { provider: 'deployment', name: 'vllm-storage', md: modelDeployment('cached', named(withStorage(gpuVllmSpec()))) },
    { provider: 'deployment', name: 'llamacpp-storage', md: modelDeployment('gemma-cached', named(withStorage(cpuGguf))) },
  ];
}

/** Every golden input, each built fresh. */
export function goldenInputs(): GoldenInput[] {
  return [
    { provider: 'dynamo', name: 'example-1-llama-8b', md: example1() },
    { provider: 'dynamo', name: 'example-3-llama-70b-pd', md: example3() },
    { provider: 'dynamo', name: 'sglang-aggregated', md: modelDeployment('sg', { ...gpuVllmSpec(), engine: { type: 'sglang', contextLength: 4096, trustRemoteCode: true } }) },
    { provider: 'dynamo', name: 'trtllm-aggregated', md: modelDeployment('trt', { ...gpuVllmSpec(), engine: { type: 'trtllm', contextLength: 8192, trustRemoteCode: true } }) },
    { provider: 'dynamo', name: 'vllm-storage', md: modelDeployment('cached', withStorage(gpuVllmSpec())) },
    { provider: 'dynamo', name: 'disaggregated-storage', md: modelDeployment('cached-pd', withStorage(disaggregatedSpec())) },
    { provider: 'dynamo', name: 'vllm-everything', md: modelDeployment('full', { ...withEverything(gpuVllmSpec()), image: 'registry.example.com/vllm-runtime:custom' }) },
    { provider: 'kaito', name: 'example-2-gemma-cpu', md: example2() },
    { provider: 'kaito', name: 'vllm-preset', md: modelDeployment('llama', gpuVllmSpec()) },
    { provider: 'kaito', name: 'vllm-preset-everything', md: modelDeployment('full', { ...withEverything(gpuVllmSpec()), image: 'custom/vllm:1' }) },
    { provider: 'kaito', name: 'llamacpp-storage', md: modelDeployment('gemma-cached', withStorage(cpuLlamacppSpec())) },
    { provider: 'kaito', name: 'llamacpp-everything', md: modelDeployment('gemma', withEverything({ ...cpuLlamacppSpec(), engine: { type: 'llamacpp', contextLength: 4096 } })) },
    { provider: 'kuberay', name: 'vllm-aggregated', md: modelDeployment('llama-ray', kuberaySpec()) },
    { provider: 'kuberay', name: 'vllm-everything', md: modelDeployment('full', { ...withEverything(kuberaySpec()), image: 'rayproject/ray-llm:2.46.0-py311-cu124' }) },
    { provider: 'kuberay', name: 'vllm-storage', md: modelDeployment('ray-cached', withStorage(kuberaySpec())) },
    { provider: 'kuberay', name: 'vllm-disaggregated', md: modelDeployment('llama-70b-pd', { ...disaggregatedSpec(), provider: { name: 'kuberay' } }) },
    ...deploymentGoldenInputs(),
  ];
}
