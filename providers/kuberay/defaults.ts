// KubeRay defaults (seed 001 §4.15): the image (`rayproject/ray-ml:<version>`, seed image table) and
// the head/worker resources of "Provider Component Defaults".

export const RAY_VERSION = '2.46.0';
/** Ray publishes ray-ml only under `.deprecated` tags since 2.31; spec.image replaces it (e.g. rayproject/ray-llm). */
export const DEFAULT_IMAGE = `rayproject/ray-ml:${RAY_VERSION}.deprecated-gpu`;

export const HEAD_DEFAULTS = {
  cpu: '4',
  memory: '16Gi',
} as const;

export const WORKER_DEFAULTS = {
  memory: '32Gi',
} as const;

export const HEAD_CONTAINER_NAME = 'ray-head';
export const WORKER_CONTAINER_NAME = 'ray-worker';

/** Ports of a Ray head: GCS, dashboard, client and Serve (the OpenAI endpoint). */
export const HEAD_PORTS = [
  { containerPort: 6379, name: 'gcs-server' },
  { containerPort: 8265, name: 'dashboard' },
  { containerPort: 10001, name: 'client' },
  { containerPort: 8000, name: 'serve' },
] as const;

/**
 * Longest RayService name KubeRay accepts (its own validation, MaxRayServiceNameLength): the RayCluster
 * gets the name plus a 6-character suffix, and its longest Service suffix `-serve-svc` must still fit a
 * 63-character DNS-1035 label: 63 - 10 - 6 = 47.
 */
export const MAX_RAYSERVICE_NAME = 47;

/** KubeRay names the Serve service `<RayService name>-serve-svc`. */
export const SERVE_SERVICE_SUFFIX = 'serve-svc';
export const SERVE_PORT = 8000;

export const SERVE_APP_NAME = 'llm';
export const AGGREGATED_IMPORT_PATH = 'ray.serve.llm:build_openai_app';
export const DISAGGREGATED_IMPORT_PATH = 'ray.serve.llm:build_pd_openai_app';

/** KV-cache transfer between prefill and decode workers in disaggregated mode. */
export const KV_TRANSFER_CONFIG = { kv_connector: 'NixlConnector', kv_role: 'kv_both' } as const;
