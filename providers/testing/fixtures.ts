// Test helpers: ModelDeployments around the seed's example specs, and a readable dump of rendered
// objects for golden files.

import { stringify } from 'yaml';
import { API_VERSION, MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeployment, ModelDeploymentSpec, ObjectMeta } from '../../api/types.ts';
import { canonicalize } from '../shared/canonical.ts';

/** Rendered objects as tests read them: free-form JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests navigate rendered JSON by known paths
export type Json = any;

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

/** YAML of the canonical form: what golden files hold. */
export function goldenText(value: unknown): string {
  return stringify(canonicalize(value), { lineWidth: 0 });
}
