// The model server container of one serving role: the engine's command and arguments (model, listen
// address, seed 001 §15 options), resources, environment, the HF token by reference, and probes on
// /health that fit model loading (a generous startup probe, then readiness and liveness).

import type { ResolvedSpec } from '../shared/spec.ts';
import { sortedMap } from '../shared/canonical.ts';
import { engineOptions, toArgv } from '../shared/engine-options.ts';
import {
  ENGINE_PORTS,
  HEALTH_PATH,
  KV_TRANSFER_CONFIG,
  LIVENESS,
  MODEL_CONTAINER_NAME,
  NIXL_SIDE_CHANNEL_ENV,
  PORT_NAME,
  READINESS,
  SHM_PATH,
  SHM_VOLUME,
  STARTUP_PERIOD_SECONDS,
  DEFAULT_IMAGES,
  type DeploymentEngine,
  type ServingRole,
} from './defaults.ts';
import { modelArgs } from './model-source.ts';
import type { ModelStorage } from '../shared/storage.ts';
import type { DeploymentSettings } from './overrides.ts';

/** What one role runs with: its own replicas and resources (prefill and decode differ). */
export interface RoleResources {
  gpu: { count: number; type: string };
  memory?: string;
  cpu?: string;
}

/** How each engine is started when the image's entrypoint is not used. */
const COMMANDS: Readonly<Record<DeploymentEngine, readonly string[] | undefined>> = {
  vllm: ['vllm', 'serve'],
  sglang: ['python3', '-m', 'sglang.launch_server'],
  // The upstream server image's entrypoint is llama-server itself (overrides.command replaces it).
  llamacpp: undefined,
};

/** Flags the provider sets; engine.args may not replace them. */
const RESERVED: Readonly<Record<DeploymentEngine, readonly string[]>> = {
  vllm: ['model', 'host', 'port', 'kv-transfer-config'],
  sglang: ['model-path', 'host', 'port'],
  llamacpp: ['model', 'hf-repo', 'hf-file', 'host', 'port'],
};

export function usesSharedMemory(engine: DeploymentEngine): boolean {
  return engine !== 'llamacpp';
}

export function serverContainer(
  spec: ResolvedSpec,
  engine: DeploymentEngine,
  role: ServingRole,
  resources: RoleResources,
  settings: DeploymentSettings,
  warnings: string[],
  storage: Pick<ModelStorage, 'mounts'> & { env: readonly unknown[] },
): Record<string, unknown> {
  const port = ENGINE_PORTS[engine];
  const { options, warnings: optionWarnings } = engineOptions(spec, engine, RESERVED[engine]);
  warnings.push(...optionWarnings);
  const args = [...modelArgs(spec, engine), '--host', '0.0.0.0', '--port', String(port), ...toArgv(options)];
  if (role !== 'server') args.push('--kv-transfer-config', KV_TRANSFER_CONFIG);
  const command = settings.command ?? COMMANDS[engine];
  const env = [...storage.env, ...spec.env, ...(role !== 'server' ? [{ name: NIXL_SIDE_CHANNEL_ENV, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] : [])];
  return {
    name: MODEL_CONTAINER_NAME,
    image: spec.image ?? DEFAULT_IMAGES[engine],
    ...(command ? { command: [...command] } : {}),
    args,
    ports: [{ name: PORT_NAME, containerPort: port, protocol: 'TCP' }],
    ...containerResources(resources),
    ...(env.length > 0 ? { env } : {}),
    // Secrets by reference only (seed 001 §4.13): every key of the named Secret becomes a variable
    // (HF_TOKEN); the controller never reads it.
    ...(spec.huggingFaceTokenSecret ? { envFrom: [{ secretRef: { name: spec.huggingFaceTokenSecret } }] } : {}),
    ...probes(settings.startupTimeoutSeconds),
    ...volumeMounts(engine, storage.mounts),
  };
}

/** /dev/shm where the engine uses it, then spec.model.storage's mounts (sorted by path). */
function volumeMounts(engine: DeploymentEngine, storage: ModelStorage['mounts']): Record<string, unknown> {
  const mounts = [...(usesSharedMemory(engine) ? [{ name: SHM_VOLUME, mountPath: SHM_PATH }] : []), ...storage];
  return mounts.length > 0 ? { volumeMounts: mounts } : {};
}

/**
 * cpu and memory as requests; memory also as the limit (a server past it is OOMKilled, which status
 * then names, rather than starving its neighbours); GPUs as limits, the only place an extended
 * resource may be set alone.
 */
function containerResources(r: RoleResources): Record<string, unknown> {
  const requests = sortedMap({ ...(r.cpu ? { cpu: r.cpu } : {}), ...(r.memory ? { memory: r.memory } : {}) });
  const limits = sortedMap({ ...(r.memory ? { memory: r.memory } : {}), ...(r.gpu.count > 0 ? { [r.gpu.type]: String(r.gpu.count) } : {}) });
  if (!requests && !limits) return {};
  return { resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } };
}

function probes(startupTimeoutSeconds: number): Record<string, unknown> {
  const httpGet = { path: HEALTH_PATH, port: PORT_NAME };
  return {
    startupProbe: { httpGet, periodSeconds: STARTUP_PERIOD_SECONDS, failureThreshold: Math.ceil(startupTimeoutSeconds / STARTUP_PERIOD_SECONDS) },
    readinessProbe: { httpGet, ...READINESS },
    livenessProbe: { httpGet, ...LIVENESS },
  };
}
