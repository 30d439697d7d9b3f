// What a DynamoGraphDeployment holds, before it takes the shape of one API version: the Frontend
// (router) and one worker (aggregated) or a prefill and a decode worker (disaggregated), each with its
// replicas, resources and main container. shape-v1alpha1.ts and shape-v1beta1.ts spell this in the
// fields of their version; everything both versions share is decided once, here.

import { DEFAULT_GPU_TYPE } from '../../api/constants.ts';
import type { EnvVar } from '../../api/types.ts';
import { sortedMap } from '../shared/canonical.ts';
import { engineOptions, toArgv } from '../shared/engine-options.ts';
import { shellCommand } from '../shared/shell.ts';
import { cacheEnvSkippedWarning, modelCacheEnv, type ModelStorage } from '../shared/storage.ts';
import type { ResolvedComponent, ResolvedSpec } from '../shared/spec.ts';
import { DEFAULT_IMAGES, FRONTEND_SERVICE_KEY, RESERVED_ARGS, ROLE_FLAGS, ROUTER_MODE_ENV, WORKER_ENTRY, dynamoEngine, workerServiceKey } from './defaults.ts';
import type { DynamoEngine } from './defaults.ts';
import { frontendSettings } from './overrides.ts';

export type ComponentRole = 'frontend' | 'aggregated' | 'prefill' | 'decode';

export interface MainContainer {
  image: string;
  command?: string[];
  args?: string[];
  env: EnvVar[];
}

export interface GraphComponent {
  /** Key in v1alpha1's `services`, `name` in v1beta1's `components`. */
  name: string;
  role: ComponentRole;
  replicas: number;
  /** Frontend: CPU and memory requests. */
  requests?: { cpu: string; memory: string };
  /** Workers: GPU count, memory and CPU limits (only those set). */
  limits?: { gpu?: number; memory?: string; cpu?: string };
  container: MainContainer;
  /** Workers mount spec.model.storage; the Frontend (a router that loads no weights) does not, as in the reference. */
  mountsStorage: boolean;
}

export interface Graph {
  engine: DynamoEngine;
  components: GraphComponent[];
  /** Secret whose keys become environment variables of every component (the HuggingFace token). */
  envSecret?: string;
  podLabels?: Record<string, string>;
  podAnnotations?: Record<string, string>;
  nodeSelector?: Record<string, string>;
  tolerations: ResolvedSpec['tolerations'];
  /** spec.model.storage's pod volumes and mounts (empty without storage), for the components that mount it. */
  volumes: ModelStorage['volumes'];
  mounts: ModelStorage['mounts'];
  /** Settings of engine options that were ignored or adjusted, then the graph's own (kept apart: the renderer puts its rename between). */
  engineWarnings: string[];
  warnings: string[];
}

export function graphOf(spec: ResolvedSpec, storage: ModelStorage): Graph {
  const engine = dynamoEngine(spec.engine);
  const { options, warnings: engineWarnings } = engineOptions(spec, engine, RESERVED_ARGS);
  const warnings: string[] = [];
  const engineArgv = toArgv(options);
  const image = spec.image ?? DEFAULT_IMAGES[engine];
  const env = uniqueEnv(spec.env, warnings);
  const workerEnv = withCacheEnv(storage, engine, env, warnings);

  const components: GraphComponent[] = [frontend(spec, env, image, warnings)];
  if (spec.mode === 'disaggregated') {
    const none: ResolvedComponent = { replicas: 1, gpu: { count: 0, type: DEFAULT_GPU_TYPE } };
    components.push(worker(spec, workerEnv, engine, image, engineArgv, 'prefill', spec.prefill ?? none));
    components.push(worker(spec, workerEnv, engine, image, engineArgv, 'decode', spec.decode ?? none));
  } else {
    components.push(worker(spec, workerEnv, engine, image, engineArgv, 'aggregated', { replicas: spec.replicas, gpu: spec.gpu, memory: spec.memory, cpu: spec.cpu }));
  }

  const gpuTypes = spec.mode === 'disaggregated' ? [spec.prefill?.gpu.type, spec.decode?.gpu.type] : [spec.gpu.type];
  const foreign = [...new Set(gpuTypes.filter((t): t is string => t !== undefined && t !== DEFAULT_GPU_TYPE))].sort();
  if (foreign.length > 0) warnings.push(`Dynamo schedules NVIDIA GPUs; GPU type ${foreign.join(', ')} is treated as ${DEFAULT_GPU_TYPE}`);

  return {
    engine,
    components,
    ...(spec.huggingFaceTokenSecret ? { envSecret: spec.huggingFaceTokenSecret } : {}),
    ...(sortedMap(spec.podLabels) ? { podLabels: sortedMap(spec.podLabels) } : {}),
    ...(sortedMap(spec.podAnnotations) ? { podAnnotations: sortedMap(spec.podAnnotations) } : {}),
    ...(sortedMap(spec.nodeSelector) ? { nodeSelector: sortedMap(spec.nodeSelector) } : {}),
    tolerations: spec.tolerations,
    volumes: storage.volumes,
    mounts: storage.mounts,
    engineWarnings,
    warnings,
  };
}

/**
 * The Frontend runs the image's own entry point (the operator supplies `python3 -m dynamo.frontend`),
 * so the router mode goes in as the environment variable the frontend reads, `DYN_ROUTER_MODE`
 * (Dynamo's frontend reference: every flag has an environment variable, the flag wins): setting
 * `--router-mode` instead would mean writing the whole command line the operator otherwise owns. The
 * seed's `router-mode` key beside the service is no field of either API version: the API server
 * refuses it. A user's own `DYN_ROUTER_MODE` in spec.env wins (the list is keyed by name).
 */
function frontend(spec: ResolvedSpec, env: EnvVar[], image: string, warnings: string[]): GraphComponent {
  const settings = frontendSettings(spec.overrides);
  const userSetsMode = env.some((e) => e.name === ROUTER_MODE_ENV);
  if (userSetsMode) warnings.push(`env ${ROUTER_MODE_ENV} is set; it takes the place of the router mode '${settings.routerMode}'`);
  return {
    name: FRONTEND_SERVICE_KEY,
    role: 'frontend',
    replicas: settings.replicas,
    requests: { cpu: settings.cpu, memory: settings.memory },
    container: { image, env: [...(userSetsMode ? [] : [{ name: ROUTER_MODE_ENV, value: settings.routerMode }]), ...env] },
    mountsStorage: false,
  };
}

/** A worker runs one shell command line: the engine's module, the model, the engine options and its role's flags. */
function worker(
  spec: ResolvedSpec,
  env: EnvVar[],
  engine: DynamoEngine,
  image: string,
  engineArgv: readonly string[],
  role: 'aggregated' | 'prefill' | 'decode',
  component: ResolvedComponent,
): GraphComponent {
  const entry = WORKER_ENTRY[engine];
  const words = ['python3', '-m', entry.module];
  if (spec.modelId !== undefined) words.push(entry.modelFlag, spec.modelId);
  words.push(...engineArgv);
  if (role !== 'aggregated') words.push(...ROLE_FLAGS[engine][role]);
  const limits = {
    ...(component.gpu.count > 0 ? { gpu: component.gpu.count } : {}),
    ...(component.memory ? { memory: component.memory } : {}),
    ...(component.cpu ? { cpu: component.cpu } : {}),
  };
  return {
    name: workerServiceKey(engine, role),
    role,
    replicas: component.replicas,
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    container: { image, command: ['/bin/sh', '-c'], args: [shellCommand(words)], env },
    mountsStorage: true,
  };
}

/** The workers' env: the model cache's variables first (a user's own of the same name wins and is warned about), then the user's. */
function withCacheEnv(storage: ModelStorage, engine: DynamoEngine, env: EnvVar[], warnings: string[]): EnvVar[] {
  const cache = modelCacheEnv(storage.modelCachePath, engine, env);
  warnings.push(...cache.skipped.map((n) => cacheEnvSkippedWarning(n, storage.modelCachePath!)));
  return [...cache.env, ...env];
}

/**
 * The container's env is a list keyed by name in both versions' schemas: the API server refuses two
 * entries of one name. A pod takes the last of them, so that one is kept, where the first one stood.
 */
function uniqueEnv(env: readonly EnvVar[], warnings: string[]): EnvVar[] {
  const last = new Map(env.map((e, i) => [e.name, i]));
  const repeated = [...new Set(env.filter((e, i) => last.get(e.name) !== i).map((e) => e.name))];
  if (repeated.length === 0) return [...env];
  warnings.push(`env ${repeated.join(', ')} is set more than once; the last value is used`);
  const seen = new Set<string>();
  return env.flatMap((e) => (seen.has(e.name) ? [] : (seen.add(e.name), [env[last.get(e.name)!]!])));
}
