// Constants of the `deployment` provider: images, ports, probe timings and name limits.

import type { EngineType } from '../../api/types.ts';

/** Engines this provider runs; TensorRT-LLM needs an engine built for the GPU, which Dynamo does. */
export type DeploymentEngine = Extract<EngineType, 'vllm' | 'sglang' | 'llamacpp'>;

/**
 * Default images (spec.image replaces them). Pinned tags, so a controller upgrade never changes a
 * running deployment's image by itself. llama.cpp's `server` image has `llama-server` as entrypoint.
 */
export const DEFAULT_IMAGES: Readonly<Record<DeploymentEngine, string>> = {
  vllm: 'vllm/vllm-openai:v0.10.1.1',
  sglang: 'lmsysorg/sglang:v0.5.2',
  llamacpp: 'ghcr.io/ggml-org/llama.cpp:server',
};

/** Port each engine listens on (and its Service's port): vLLM's and llama-server's usual ones, SGLang told to match vLLM. */
export const ENGINE_PORTS: Readonly<Record<DeploymentEngine, number>> = {
  vllm: 8000,
  sglang: 8000,
  llamacpp: 8080,
};

/** All three servers answer 200 on /health once the model is loaded (503 or no answer before). */
export const HEALTH_PATH = '/health';
export const PORT_NAME = 'http';
export const MODEL_CONTAINER_NAME = 'server';

/** Model loading (download included) may take long: the startup probe allows this much by default. */
export const DEFAULT_STARTUP_TIMEOUT_SECONDS = 1800;
export const STARTUP_PERIOD_SECONDS = 10;
export const READINESS = { periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 } as const;
export const LIVENESS = { periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 3 } as const;
/**
 * The Deployment reports ProgressDeadlineExceeded when a rollout makes no progress for this long; it
 * must outlast the startup probe, or a model still loading would read as a stuck rollout.
 */
export const PROGRESS_DEADLINE_MARGIN_SECONDS = 300;

/** vLLM and SGLang share tensors between processes through /dev/shm; the container default (64Mi) is too small. */
export const SHM_VOLUME = 'dshm';
export const SHM_PATH = '/dev/shm';

/** Label of the serving role on pods, in Deployment and Service selectors. */
export const ROLE_LABEL = 'kubeairunway.ai/serving-role';
export type ServingRole = 'server' | 'prefill' | 'decode';

/** vLLM disaggregated prefill/decode: KV cache moves between the roles over NIXL. */
export const KV_TRANSFER_CONFIG = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}';
export const NIXL_SIDE_CHANNEL_ENV = 'VLLM_NIXL_SIDE_CHANNEL_HOST';

/**
 * Longest base name (the ModelDeployment's, or its hashed form). Each role's Deployment and Service are
 * named `<base>` or `<base>-prefill` / `<base>-decode`. Service names must be DNS-1035 labels of at most
 * 63 characters, and the longest suffix is `-prefill` (8): 63 - 8 = 55. The same name then fits the
 * Deployment too: its ReplicaSets add `-<hash of up to 10>` and its pods another `-<5>`, far below the
 * 253 characters of an object name.
 */
export const MAX_BASE_NAME = 55;
