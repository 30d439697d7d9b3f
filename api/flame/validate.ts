// The one check of a FlameCluster, run by the workflow before it renders anything and by the offline
// CLI. It rejects what the CRD schema rejects (so a spec that passed admission passes here), and what
// would only fail later when the pods are created: names too long for pod hostnames, negative
// quantities. On success it returns a clean copy holding only the fields we know, the way the API
// server prunes unknown ones.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/flame/.

import {
  CLUSTER_NAME_PATTERN,
  IMAGE_PATTERN,
  longestChildName,
  MAX_CHILD_NAME_LENGTH,
  QUANTITY_STRING_PATTERN,
} from './names.ts';
import { FLAME_API_VERSION, FLAME_CLUSTER_KIND } from './constants.ts';
import type {
  ExecutorManagerSpec,
  FlameCluster,
  FlameClusterMetadata,
  FlameClusterSpec,
  FlameClusterStatus,
  ObjectCacheSpec,
  Quantity,
  ResourceRequirements,
  SessionManagerSpec,
} from './types.ts';

export interface FlameIssue {
  /** Path of the offending field, e.g. "spec.executorManager.replicas". */
  field: string;
  message: string;
}

export type FlameValidation =
  | { valid: true; cluster: FlameCluster }
  | { valid: false; errors: FlameIssue[]; message: string };

type Obj = Record<string, unknown>;

const CLUSTER_NAME = new RegExp(CLUSTER_NAME_PATTERN);
const IMAGE = new RegExp(IMAGE_PATTERN);
const QUANTITY = new RegExp(QUANTITY_STRING_PATTERN);

export function validateFlameCluster(obj: unknown): FlameValidation {
  const errors: FlameIssue[] = [];
  const cluster = check(obj, (field, message) => errors.push({ field, message }));
  if (errors.length > 0 || !cluster) {
    return { valid: false, errors, message: errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
  }
  return { valid: true, cluster };
}

/** Records one problem. Every check below reports through it and returns what it could read; the result is used only when nothing was reported. */
type Report = (field: string, message: string) => void;

function check(obj: unknown, report: Report): FlameCluster | undefined {
  if (!isObject(obj)) {
    report('object', `must be a ${FLAME_CLUSTER_KIND} object, got ${typeName(obj)}`);
    return undefined;
  }
  if (obj.apiVersion !== FLAME_API_VERSION) report('apiVersion', `must be ${FLAME_API_VERSION}, got ${show(obj.apiVersion)}`);
  if (obj.kind !== FLAME_CLUSTER_KIND) report('kind', `must be ${FLAME_CLUSTER_KIND}, got ${show(obj.kind)}`);
  const metadata = checkMetadata(obj.metadata, report);
  if (obj.spec == null) {
    report('spec', 'required');
    return undefined;
  }
  if (!isObject(obj.spec)) {
    report('spec', `must be an object, got ${typeName(obj.spec)}`);
    return undefined;
  }
  const spec = checkSpec(obj.spec, report);
  const replicas = spec.executorManager.replicas;
  if (metadata.name && CLUSTER_NAME.test(metadata.name)) checkNameLength(metadata.name, isCount(replicas, 0) ? replicas : 0, report);
  const status = readStatus(obj.status);
  return { apiVersion: FLAME_API_VERSION, kind: FLAME_CLUSTER_KIND, metadata, spec, ...(status ? { status } : {}) };
}

function checkMetadata(value: unknown, report: Report): FlameClusterMetadata {
  if (value != null && !isObject(value)) {
    report('metadata', `must be an object, got ${typeName(value)}`);
    return { name: '' };
  }
  const meta: Obj = value ?? {};
  const name = meta.name;
  if (name == null || name === '') {
    report('metadata.name', 'required');
  } else if (typeof name !== 'string') {
    report('metadata.name', `must be a string, got ${typeName(name)}`);
  } else if (!CLUSTER_NAME.test(name)) {
    report(
      'metadata.name',
      `must be a DNS-1035 label (lower-case letters, digits and '-', starting with a letter and ending with a letter or digit), since it prefixes the Service names; got ${show(name)}`,
    );
  }
  const generation = meta.generation;
  if (generation != null && !isCount(generation, 0)) report('metadata.generation', `must be an integer >= 0, got ${show(generation)}`);
  return compact({
    name: typeof name === 'string' ? name : '',
    namespace: optionalString(meta, 'namespace', 'metadata', report),
    uid: optionalString(meta, 'uid', 'metadata', report),
    generation: typeof generation === 'number' ? generation : undefined,
    resourceVersion: optionalString(meta, 'resourceVersion', 'metadata', report),
    labels: optionalStringMap(meta, 'labels', 'metadata', report),
    annotations: optionalStringMap(meta, 'annotations', 'metadata', report),
    deletionTimestamp: optionalString(meta, 'deletionTimestamp', 'metadata', report),
  });
}

function checkSpec(spec: Obj, report: Report): FlameClusterSpec {
  const sessionManager = requiredObject(spec, 'sessionManager', 'spec', report);
  const executorManager = requiredObject(spec, 'executorManager', 'spec', report);
  return compact({
    // A missing or malformed component is one error, not also one per field inside it.
    sessionManager: sessionManager ? checkSessionManager(sessionManager, 'spec.sessionManager', report) : ({} as SessionManagerSpec),
    executorManager: executorManager ? checkExecutorManager(executorManager, 'spec.executorManager', report) : ({} as ExecutorManagerSpec),
    objectCache: spec.objectCache == null ? undefined : checkObjectCache(spec.objectCache, 'spec.objectCache', report),
  });
}

function checkSessionManager(value: Obj, path: string, report: Report): SessionManagerSpec {
  return compact({
    image: checkImage(value, path, report),
    resources: value.resources == null ? undefined : checkResources(value.resources, `${path}.resources`, report),
    slot: optionalString(value, 'slot', path, report),
    policy: optionalString(value, 'policy', path, report),
    storage: optionalString(value, 'storage', path, report),
  });
}

function checkExecutorManager(value: Obj, path: string, report: Report): ExecutorManagerSpec {
  const image = checkImage(value, path, report);
  const replicas = value.replicas;
  if (replicas == null) report(`${path}.replicas`, 'required');
  else if (!isCount(replicas, 0)) report(`${path}.replicas`, `must be an integer >= 0, got ${show(replicas)}`);
  const resources = value.resources == null ? undefined : checkResources(value.resources, `${path}.resources`, report);
  const shim = optionalString(value, 'shim', path, report);
  const maxExecutors = value.maxExecutors;
  if (maxExecutors != null && !isCount(maxExecutors, 1)) report(`${path}.maxExecutors`, `must be an integer >= 1, got ${show(maxExecutors)}`);
  return compact({
    image,
    replicas: replicas as number,
    resources,
    shim,
    maxExecutors: maxExecutors == null ? undefined : (maxExecutors as number),
  });
}

function checkObjectCache(value: unknown, path: string, report: Report): ObjectCacheSpec {
  if (!isObject(value)) {
    report(path, `must be an object, got ${typeName(value)}`);
    return {};
  }
  return compact({
    networkInterface: optionalString(value, 'networkInterface', path, report),
    storage: optionalString(value, 'storage', path, report),
  });
}

function checkImage(value: Obj, path: string, report: Report): string {
  const image = value.image;
  const field = `${path}.image`;
  if (image == null || image === '') report(field, 'required');
  else if (typeof image !== 'string') report(field, `must be a string, got ${typeName(image)}`);
  else if (!IMAGE.test(image)) report(field, `must not contain whitespace, got ${show(image)}`);
  return typeof image === 'string' ? image : '';
}

/** `requests` and `limits` of a container's ResourceRequirements; other keys are dropped, as the API server prunes them. */
function checkResources(value: unknown, path: string, report: Report): ResourceRequirements {
  if (!isObject(value)) {
    report(path, `must be an object with requests and/or limits, got ${typeName(value)}`);
    return {};
  }
  return compact({
    requests: value.requests == null ? undefined : checkQuantities(value.requests, `${path}.requests`, report),
    limits: value.limits == null ? undefined : checkQuantities(value.limits, `${path}.limits`, report),
  });
}

function checkQuantities(value: unknown, path: string, report: Report): Record<string, Quantity> {
  if (!isObject(value)) {
    report(path, `must be a map of resource names to quantities, got ${typeName(value)}`);
    return {};
  }
  const out: [string, Quantity][] = [];
  for (const key of Object.keys(value).sort()) {
    const quantity = value[key];
    // Numbers must be integers, as the CRD's int-or-string type requires: half a CPU is "500m" or "0.5".
    if (typeof quantity === 'string' ? QUANTITY.test(quantity) : isCount(quantity, 0)) out.push([key, quantity as Quantity]);
    else report(`${path}.${key}`, `must be a non-negative quantity such as "500m", "2Gi" or 4, got ${show(quantity)}`);
  }
  return Object.fromEntries(out);
}

function checkNameLength(name: string, replicas: number, report: Report): void {
  const longest = longestChildName(name, replicas);
  const over = longest.length - MAX_CHILD_NAME_LENGTH;
  if (over <= 0) return;
  const pod = replicas > 0 ? `with ${replicas} executor${replicas === 1 ? '' : 's'} the pod` : 'the session manager pod';
  report(
    'metadata.name',
    `is too long: ${pod} "${longest}" would have ${longest.length} characters, over the ${MAX_CHILD_NAME_LENGTH} allowed (pod names become hostnames, which must be DNS labels); use at most ${name.length - over} characters`,
  );
}

/**
 * The stored status when it is well formed, else nothing: a malformed status never makes the cluster
 * invalid (the controller rewrites it), it is just not trusted.
 */
function readStatus(value: unknown): FlameClusterStatus | undefined {
  if (!isObject(value)) return undefined;
  const { sessionManager: sm, executorManager: em, state, configGeneration, observedGeneration, message } = value;
  if (!isObject(sm) || !isCount(sm.ready, 0) || typeof sm.endpoint !== 'string') return undefined;
  if (!isObject(em) || !isCount(em.replicas, 0) || !isCount(em.ready, 0)) return undefined;
  if (state !== 'Pending' && state !== 'Running' && state !== 'Failed') return undefined;
  if (!isCount(configGeneration, 0) || !isCount(observedGeneration, 0) || typeof message !== 'string') return undefined;
  return {
    sessionManager: { ready: sm.ready as number, endpoint: sm.endpoint },
    executorManager: { replicas: em.replicas as number, ready: em.ready as number },
    state,
    configGeneration: configGeneration as number,
    observedGeneration: observedGeneration as number,
    message,
  };
}

/** The object under `key`; undefined (and reported) when absent or not an object. */
function requiredObject(parent: Obj, key: string, parentPath: string, report: Report): Obj | undefined {
  const value = parent[key];
  if (value == null) report(`${parentPath}.${key}`, 'required');
  else if (!isObject(value)) report(`${parentPath}.${key}`, `must be an object, got ${typeName(value)}`);
  else return value;
  return undefined;
}

/** The string; undefined when absent (null counts as absent: the API server drops null fields) or of the wrong type, which is reported. */
function optionalString(parent: Obj, key: string, parentPath: string, report: Report): string | undefined {
  const value = parent[key];
  if (value == null || typeof value === 'string') return value ?? undefined;
  report(`${parentPath}.${key}`, `must be a string, got ${typeName(value)}`);
  return undefined;
}

function optionalStringMap(parent: Obj, key: string, parentPath: string, report: Report): Record<string, string> | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  if (isObject(value) && Object.values(value).every((v) => typeof v === 'string')) return { ...(value as Record<string, string>) };
  report(`${parentPath}.${key}`, 'must be a map of strings to strings');
  return undefined;
}

/** The object without its undefined entries, so an absent optional field stays absent (and out of rendered output). */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

/** A value as it would appear in the manifest, for messages. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
