// `spec.model.storage` as Kubernetes objects, for every provider alike (api/crd/storage-schema.ts declares
// the field): pod volumes and container mounts in core/v1 shapes, the PersistentVolumeClaims the
// controller creates (volumes with `size`), and the path the engine should use as its model cache.
// Pure and canonical: the same spec gives the same bytes whatever order its volumes are listed in, and a
// spec without storage gives empty lists, so providers render exactly what they rendered before.
//
// Each provider puts `volumes` in its pod specs and `mounts` in its model containers, in the form its
// upstream CRD declares, and appends `claims` to its rendered objects (PersistentVolumeClaim among its
// ownedKinds). A claim the controller creates carries the ModelDeployment's labels and a controlling
// owner reference, so cleanup (and the garbage collector) deletes it with the deployment; a claim named
// by `claimName` alone is the user's and is only mounted: nothing of ours labels or owns it, so nothing
// of ours ever deletes it.
//
// Defaults the CRD cannot apply (they depend on another field) are applied here: mountPath by purpose,
// claimName `<ModelDeployment name>-<volume name>` when size is set, accessMode ReadWriteMany.

import { DEFAULT_ACCESS_MODE, DEFAULT_MOUNT_PATHS } from '../../api/crd/storage-schema.ts';
import { isPlainObject } from '../../api/overrides.ts';
import { managedClaimName } from '../../api/storage-rules.ts';
import type { EngineType, EnvVar, ModelDeployment } from '../../api/types.ts';
import type { KubernetesObject, OwnedKind } from '../contract.ts';
import { canonicalObject } from './rendered-object.ts';
import { objectMeta } from './metadata.ts';
import { resolveSpec } from './spec.ts';

/**
 * The kind every provider lists among its ownedKinds for the claims it creates. A recreation (an identity
 * change) leaves these in place; only the deployment's deletion removes them.
 */
export const CLAIM_OWNED_KIND: OwnedKind = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims' };

/** A pod volume (core/v1 Volume) backed by a claim. */
export interface ClaimVolume {
  name: string;
  persistentVolumeClaim: { claimName: string; readOnly?: true };
}

/** A container's mount of one of those volumes (core/v1 VolumeMount). */
export interface VolumeMountOut {
  name: string;
  mountPath: string;
  readOnly?: true;
}

export interface ModelStorage {
  /** Pod volumes, sorted by name; empty without storage. */
  volumes: ClaimVolume[];
  /** Mounts for the model containers, sorted by mountPath, so a parent path is mounted before a path inside it. */
  mounts: VolumeMountOut[];
  /** The PersistentVolumeClaims the controller creates (v1, canonical), sorted by name. */
  claims: KubernetesObject[];
  /** Where the modelCache volume is mounted, if there is one: the engine's download cache. */
  modelCachePath?: string;
}

/** One volume with every default applied; undefined for an entry the schema would refuse. */
interface ResolvedVolume {
  name: string;
  mountPath: string;
  purpose: string;
  readOnly: boolean;
  claimName: string;
  /** Only for a claim the controller creates. */
  managed?: { size: string; accessMode: string; storageClassName?: string };
}

/**
 * The storage of `md` for a provider to render (see the file comment). Tolerant like resolveSpec: an
 * entry that validation refuses (no name, no path, no claim) is left out rather than rendered half.
 */
export function modelStorage(md: ModelDeployment): ModelStorage {
  const resolved = resolveVolumes(md);
  const spec = resolveSpec(md);
  const volumes = [...resolved].sort((a, b) => compare(a.name, b.name));
  return {
    volumes: volumes.map((v) => ({ name: v.name, persistentVolumeClaim: { claimName: v.claimName, ...(v.readOnly ? { readOnly: true as const } : {}) } })),
    mounts: [...resolved]
      .sort((a, b) => compare(a.mountPath, b.mountPath))
      .map((v) => ({ name: v.name, mountPath: v.mountPath, ...(v.readOnly ? { readOnly: true as const } : {}) })),
    claims: volumes
      .filter((v) => v.managed)
      .sort((a, b) => compare(a.claimName, b.claimName))
      .map((v) =>
        canonicalObject({
          apiVersion: 'v1',
          kind: CLAIM_OWNED_KIND.kind,
          metadata: objectMeta(spec, v.claimName),
          spec: {
            accessModes: [v.managed!.accessMode],
            resources: { requests: { storage: v.managed!.size } },
            // Absent means the cluster's default StorageClass; "" means none (a statically provisioned volume).
            ...(v.managed!.storageClassName !== undefined ? { storageClassName: v.managed!.storageClassName } : {}),
          },
        }),
      ),
    ...modelCache(resolved),
  };
}

/** Engines that fetch models with huggingface_hub, which caches under HF_HOME (weights and tokenizer alike). */
const HF_HUB_ENGINES: ReadonlySet<string> = new Set<EngineType>(['vllm', 'sglang', 'trtllm']);

/**
 * The environment that points `engine` at the model cache: HF_HOME for the engines that download with
 * huggingface_hub (vLLM, SGLang, TensorRT-LLM). vLLM's `--download-dir` is not set: it would put the
 * weights outside the hub's layout while the tokenizer still went to HF_HOME, splitting one cache in
 * two. For llama.cpp, LLAMA_CACHE (where its `-hf`/`-mu` downloads land) and HF_HOME (runners that
 * fetch through huggingface_hub). A variable the user sets in spec.env wins; `skipped` names those.
 */
export function modelCacheEnv(path: string | undefined, engine: string | undefined, userEnv: readonly EnvVar[]): { env: EnvVar[]; skipped: string[] } {
  if (path === undefined || engine === undefined) return { env: [], skipped: [] };
  const names = HF_HUB_ENGINES.has(engine) ? ['HF_HOME'] : engine === 'llamacpp' ? ['HF_HOME', 'LLAMA_CACHE'] : [];
  const userSets = (name: string) => userEnv.some((e) => e.name === name);
  return {
    env: names.filter((n) => !userSets(n)).map((name) => ({ name, value: path })),
    skipped: names.filter(userSets),
  };
}

/** The warning for a cache variable the user set themselves. */
export function cacheEnvSkippedWarning(name: string, path: string): string {
  return `env ${name} is set; it takes the place of the model cache path '${path}' (spec.model.storage)`;
}

function modelCache(volumes: readonly ResolvedVolume[]): { modelCachePath?: string } {
  const cache = volumes.find((v) => v.purpose === 'modelCache');
  return cache ? { modelCachePath: cache.mountPath } : {};
}

function resolveVolumes(md: ModelDeployment): ResolvedVolume[] {
  const model = isPlainObject(md.spec) && isPlainObject(md.spec.model) ? md.spec.model : {};
  const list = isPlainObject(model.storage) && Array.isArray(model.storage.volumes) ? model.storage.volumes : [];
  const mdName = typeof md.metadata?.name === 'string' ? md.metadata.name : '';
  const out: ResolvedVolume[] = [];
  const seen = new Set<string>();
  for (const entry of list as unknown[]) {
    const volume = resolveVolume(entry, mdName);
    // A repeated name is refused by validation; rendering keeps the first rather than two volumes of one name.
    if (!volume || seen.has(volume.name)) continue;
    out.push(volume);
    seen.add(volume.name);
  }
  return out;
}

function resolveVolume(entry: unknown, mdName: string): ResolvedVolume | undefined {
  if (!isPlainObject(entry)) return undefined;
  const name = text(entry.name);
  const purpose = text(entry.purpose) ?? 'custom';
  const mountPath = text(entry.mountPath) ?? (DEFAULT_MOUNT_PATHS as Record<string, string>)[purpose];
  const size = text(entry.size);
  if (name === undefined || mountPath === undefined) return undefined;
  const managedName = managedClaimName(mdName, name);
  const claimName = text(entry.claimName) ?? (size !== undefined ? managedName : undefined);
  if (claimName === undefined) return undefined;
  // Validation refuses size beside a foreign claimName; should one get here anyway, the claim is only
  // mounted: the controller never creates, owns (and so never deletes) a claim that is not its own.
  const managed = size !== undefined && claimName === managedName;
  const storageClassName = typeof entry.storageClassName === 'string' ? entry.storageClassName : undefined;
  return {
    name,
    mountPath,
    purpose,
    readOnly: entry.readOnly === true,
    claimName,
    ...(managed ? { managed: { size, accessMode: text(entry.accessMode) ?? DEFAULT_ACCESS_MODE, ...(storageClassName !== undefined ? { storageClassName } : {}) } } : {}),
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
