// One normalized reading of a ModelDeployment for the renderers. The API server stores what the user
// wrote (every field optional); the admission webhook usually fills the seed's defaults, but rendering
// must give the same bytes whether or not it did, so the defaults are applied here again.

import { DEFAULT_GPU_TYPE } from '../../api/constants.ts';
import type {
  EngineSpec,
  EngineType,
  EnvVar,
  ModelDeployment,
  ModelDeploymentSpec,
  ModelSource,
  ModelSpec,
  ObjectMeta,
  ResourcesSpec,
  ServingMode,
  Toleration,
} from '../../api/types.ts';
import { isPlainObject } from '../../api/overrides.ts';

export interface ResolvedGpu {
  count: number;
  type: string;
}

export interface ResolvedComponent {
  replicas: number;
  gpu: ResolvedGpu;
  memory?: string;
  cpu?: string;
}

export interface ResolvedSpec {
  name: string;
  namespace: string;
  uid?: string;
  /** metadata.labels of the ModelDeployment. */
  labels: Readonly<Record<string, string>>;
  modelId?: string;
  /** Only when the user asked for an API-facing name different from the default (see `servedNameOverride`). */
  servedName?: string;
  source: ModelSource;
  engine?: EngineType;
  contextLength?: number;
  trustRemoteCode: boolean;
  /** engine.args as [key, value] pairs sorted by key. */
  args: ReadonlyArray<readonly [string, string]>;
  mode: ServingMode;
  replicas: number;
  gpu: ResolvedGpu;
  memory?: string;
  cpu?: string;
  prefill?: ResolvedComponent;
  decode?: ResolvedComponent;
  image?: string;
  env: readonly EnvVar[];
  podLabels: Readonly<Record<string, string>>;
  podAnnotations: Readonly<Record<string, string>>;
  huggingFaceTokenSecret?: string;
  nodeSelector: Readonly<Record<string, string>>;
  tolerations: readonly Toleration[];
  overrides: Readonly<Record<string, unknown>>;
}

export function resolveSpec(md: ModelDeployment): ResolvedSpec {
  const spec: ModelDeploymentSpec = isPlainObject(md.spec) ? md.spec : {};
  const meta: ObjectMeta = isPlainObject(md.metadata) ? md.metadata : {};
  const model: ModelSpec = isPlainObject(spec.model) ? spec.model : {};
  const engine: EngineSpec = isPlainObject(spec.engine) ? spec.engine : {};
  const resources: ResourcesSpec = isPlainObject(spec.resources) ? spec.resources : {};
  const source: ModelSource = model.source === 'custom' ? 'custom' : 'huggingface';
  const modelId = nonEmpty(model.id);
  const mode: ServingMode = spec.serving?.mode === 'disaggregated' ? 'disaggregated' : 'aggregated';
  return {
    name: nonEmpty(meta.name) ?? '',
    namespace: nonEmpty(meta.namespace) ?? 'default',
    uid: nonEmpty(meta.uid),
    labels: stringMap(meta.labels),
    modelId,
    servedName: source === 'huggingface' ? servedNameOverride(model.servedName, modelId) : undefined,
    source,
    // A type of the wrong kind reads as absent (an object here would break every message that names it).
    engine: typeof engine.type === 'string' ? engine.type : undefined,
    contextLength: positiveInteger(engine.contextLength),
    trustRemoteCode: engine.trustRemoteCode === true,
    args: Object.entries(stringMap(engine.args)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    mode,
    replicas: nonNegativeInteger(spec.scaling?.replicas) ?? 1,
    gpu: resolveGpu(resources.gpu),
    memory: nonEmpty(resources.memory),
    cpu: nonEmpty(resources.cpu),
    prefill: mode === 'disaggregated' ? resolveComponent(spec.scaling?.prefill) : undefined,
    decode: mode === 'disaggregated' ? resolveComponent(spec.scaling?.decode) : undefined,
    image: nonEmpty(spec.image),
    env: Array.isArray(spec.env) ? spec.env.filter((e) => isPlainObject(e) && typeof e.name === 'string') : [],
    podLabels: stringMap(spec.podTemplate?.metadata?.labels),
    podAnnotations: stringMap(spec.podTemplate?.metadata?.annotations),
    huggingFaceTokenSecret: nonEmpty(spec.secrets?.huggingFaceToken),
    nodeSelector: stringMap(spec.nodeSelector),
    tolerations: Array.isArray(spec.tolerations) ? spec.tolerations.filter(isPlainObject) : [],
    overrides: isPlainObject(spec.provider?.overrides) ? spec.provider.overrides : {},
  };
}

/**
 * The seed's default API-facing name is the model id's basename (§4.1), and its Example 1 renders no
 * served-name flag for that default. So a served name equal to the default (written by the user or
 * filled in by the webhook) renders nothing, and rendering is the same with or without defaulting.
 */
export function servedNameOverride(servedName: unknown, modelId: string | undefined): string | undefined {
  const name = nonEmpty(servedName);
  if (name === undefined || name === modelId) return undefined;
  if (modelId !== undefined && name === defaultServedName(modelId)) return undefined;
  return name;
}

export function defaultServedName(modelId: string): string {
  const parts = modelId.split('/').filter((p) => p.length > 0);
  return parts[parts.length - 1] ?? modelId;
}

/** True when the deployment asks for GPUs anywhere: resources.gpu, or prefill/decode in disaggregated mode. */
export function requestsGpu(spec: ResolvedSpec): boolean {
  if (spec.mode === 'disaggregated') {
    return (spec.prefill?.gpu.count ?? 0) > 0 || (spec.decode?.gpu.count ?? 0) > 0;
  }
  return spec.gpu.count > 0;
}

function resolveComponent(value: unknown): ResolvedComponent | undefined {
  if (!isPlainObject(value)) return undefined;
  return {
    replicas: nonNegativeInteger(value.replicas) ?? 1,
    gpu: resolveGpu(value.gpu),
    memory: nonEmpty(value.memory),
    cpu: nonEmpty(value.cpu),
  };
}

function resolveGpu(value: unknown): ResolvedGpu {
  if (!isPlainObject(value)) return { count: 0, type: DEFAULT_GPU_TYPE };
  return { count: nonNegativeInteger(value.count) ?? 0, type: nonEmpty(value.type) ?? DEFAULT_GPU_TYPE };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function stringMap(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') out[key] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
  }
  return out;
}
