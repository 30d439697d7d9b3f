// Dynamo defaults: runtime images per engine (seed 001 §4.15 image table; the tag is the one of the
// seed's examples) and the Frontend component defaults (§4.15 "Provider Component Defaults").

import type { EngineType } from '../../api/types.ts';

export const DYNAMO_VERSION = '0.7.1';
const IMAGE_REPOSITORY = 'nvcr.io/nvidia/ai-dynamo';

export type DynamoEngine = 'vllm' | 'sglang' | 'trtllm';

export const DEFAULT_IMAGES: Readonly<Record<DynamoEngine, string>> = {
  vllm: `${IMAGE_REPOSITORY}/vllm-runtime:${DYNAMO_VERSION}`,
  sglang: `${IMAGE_REPOSITORY}/sglang-runtime:${DYNAMO_VERSION}`,
  trtllm: `${IMAGE_REPOSITORY}/trtllm-runtime:${DYNAMO_VERSION}`,
};

export function dynamoEngine(engine: EngineType | undefined): DynamoEngine {
  return engine === 'sglang' || engine === 'trtllm' ? engine : 'vllm';
}

export const FRONTEND_DEFAULTS = {
  replicas: 1,
  cpu: '2',
  memory: '4Gi',
  routerMode: 'round-robin',
} as const;

export const ROUTER_MODES = ['kv', 'round-robin', 'none'] as const;

/** The environment variable Dynamo's frontend reads its router mode from (the `--router-mode` flag's fallback). */
export const ROUTER_MODE_ENV = 'DYN_ROUTER_MODE';

/** The Frontend's OpenAI-compatible HTTP port; Dynamo's service is `<name>-frontend`. */
export const FRONTEND_PORT = 8000;
export const FRONTEND_SERVICE_SUFFIX = 'frontend';

/** Worker entry point per engine: Python module and the flag that names the model. */
export const WORKER_ENTRY: Readonly<Record<DynamoEngine, { module: string; modelFlag: string; servicePrefix: string }>> = {
  vllm: { module: 'dynamo.vllm', modelFlag: '--model', servicePrefix: 'Vllm' },
  sglang: { module: 'dynamo.sglang', modelFlag: '--model-path', servicePrefix: 'Sglang' },
  trtllm: { module: 'dynamo.trtllm', modelFlag: '--model-path', servicePrefix: 'Trtllm' },
};

/** Key of a service in the graph; Dynamo names its component `<graph name>-<key in lower case>`. */
export const FRONTEND_SERVICE_KEY = 'Frontend';
export function workerServiceKey(engine: DynamoEngine, role: 'aggregated' | 'prefill' | 'decode'): string {
  const role_ = role === 'prefill' ? 'Prefill' : role === 'decode' ? 'Decode' : '';
  return `${WORKER_ENTRY[engine].servicePrefix}${role_}Worker`;
}

/**
 * Longest DynamoGraphDeployment name the operator can run: it names each component (a Deployment, its
 * Service and the `nvidia.com/selector` label value) `<graph name>-<service key in lower case>`, which
 * must be a DNS-1035 label of at most 63 characters. The longest key we render is
 * `SglangPrefillWorker`/`TrtllmPrefillWorker` (19), so 63 - 1 - 19 = 43, whatever the engine or mode,
 * so that a graph keeps its name when those change.
 */
export const MAX_GRAPH_NAME =
  63 -
  1 -
  Math.max(
    FRONTEND_SERVICE_KEY.length,
    ...(Object.keys(WORKER_ENTRY) as DynamoEngine[]).flatMap((e) => (['aggregated', 'prefill', 'decode'] as const).map((r) => workerServiceKey(e, r).length)),
  );

/**
 * Flags that make a worker a prefill or decode worker. vLLM's are the ones of seed Example 3 (a prefill
 * flag, decode is the default); SGLang and TensorRT-LLM workers name their role explicitly.
 */
export const ROLE_FLAGS: Readonly<Record<DynamoEngine, { prefill: readonly string[]; decode: readonly string[] }>> = {
  vllm: { prefill: ['--is-prefill-worker'], decode: [] },
  sglang: { prefill: ['--disaggregation-mode', 'prefill'], decode: ['--disaggregation-mode', 'decode'] },
  trtllm: { prefill: ['--disaggregation-mode', 'prefill'], decode: ['--disaggregation-mode', 'decode'] },
};

/** engine.args keys the renderer sets itself. */
export const RESERVED_ARGS = ['model', 'model-path', 'is-prefill-worker', 'disaggregation-mode'] as const;
