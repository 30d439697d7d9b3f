// KAITO-specific constants. KAITO picks the vLLM image from its preset; llama.cpp has no default
// image, the user must set spec.image (seed 001 §4.15, image defaults table).

/** Port the llama.cpp runner listens on; KAITO's service forwards port 80 to it. */
export const LLAMACPP_PORT = 5000;

/** Service port of a Workspace (seed 001 Example 2 status: endpoint port 80). */
export const WORKSPACE_SERVICE_PORT = 80;

/** Every Workspace targets Linux nodes; spec.nodeSelector adds to this (seed Example 2). */
export const BASE_NODE_LABELS: Readonly<Record<string, string>> = { 'kubernetes.io/os': 'linux' };

/** Node label the NVIDIA GPU operator sets on GPU nodes; used to keep GPU workspaces on GPU nodes. */
export const NVIDIA_GPU_PRESENT_LABEL = 'nvidia.com/gpu.present';

/** Key of the vLLM parameters file in the inference ConfigMap that KAITO reads (`inference.config`). */
export const INFERENCE_CONFIG_KEY = 'inference_config.yaml';
export const INFERENCE_CONFIG_SUFFIX = 'inference-config';

export const MODEL_CONTAINER_NAME = 'model';

/**
 * Longest Workspace name KAITO can run: it names its Services (`<name>`, `<name>-headless`) and the
 * StatefulSet or Deployment after the Workspace, and StatefulSet pods carry the label
 * `controller-revision-hash: <name>-<hash of up to 10 characters>`, a label value of at most 63
 * characters: 63 - 11 = 52.
 */
export const MAX_WORKSPACE_NAME = 52;
