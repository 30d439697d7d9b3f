// The frame's checks shared by the validators of the kinds beyond ModelDeployment (FlameCluster,
// AsyncActor, the Kybernate kinds): the object's head (apiVersion, kind, metadata), how problems are
// reported and collected, and the words values are shown in. Their specs are checked by the schema
// interpreter (api/schema/check.ts). Each check reports a problem through `report` and returns what it
// could read, so one pass collects every problem of an object. Pure.

import { jsonTypeName } from '../schema/json-types.ts';

export type Obj = Record<string, unknown>;
/** Records one problem under the path of the offending field, e.g. "spec.storage.image". */
export type Report = (field: string, message: string) => void;

export interface FieldIssue {
  /** Path of the offending field, e.g. "spec.executorManager.replicas". */
  field: string;
  message: string;
}

/**
 * A non-negative Kubernetes quantity written as a string ("500m", "1Gi", "2", "1e3"): the API server's
 * Quantity pattern without the minus sign, since pods reject negative requests and limits.
 */
export const QUANTITY_STRING_PATTERN =
  '^\\+?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** The metadata fields the validators keep; every kind's metadata type is this one or a part of it. */
export interface ObjectMetadata {
  name: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  deletionTimestamp?: string;
}

/** What differs between kinds in the head of an object. */
export interface HeadRules {
  apiVersion: string;
  kind: string;
  /** Why a present, non-empty string metadata.name is refused; undefined when it is fine. */
  nameProblem: (name: string) => string | undefined;
  /** Whether metadata.finalizers is checked and kept (kinds whose controller adds a finalizer). */
  finalizers: boolean;
}

export interface Head {
  metadata: ObjectMetadata;
  spec: Obj;
  status: Obj | undefined;
}

/** apiVersion, kind, metadata and the spec object; undefined when there is no spec to check. */
export function checkHead(obj: unknown, rules: HeadRules, report: Report): Head | undefined {
  const { apiVersion, kind } = rules;
  if (!isObject(obj)) {
    report('object', `must be ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} object, got ${jsonTypeName(obj)}`);
    return undefined;
  }
  if (obj.apiVersion !== apiVersion) report('apiVersion', `must be ${apiVersion}, got ${show(obj.apiVersion)}`);
  if (obj.kind !== kind) report('kind', `must be ${kind}, got ${show(obj.kind)}`);
  const metadata = checkMetadata(obj.metadata, rules, report);
  if (obj.spec == null) {
    report('spec', 'is required');
    return undefined;
  }
  if (!isObject(obj.spec)) {
    report('spec', `must be an object, got ${jsonTypeName(obj.spec)}`);
    return undefined;
  }
  return { metadata, spec: obj.spec, status: isObject(obj.status) ? obj.status : undefined };
}

function checkMetadata(value: unknown, rules: HeadRules, report: Report): ObjectMetadata {
  if (value != null && !isObject(value)) {
    report('metadata', `must be an object, got ${jsonTypeName(value)}`);
    return { name: '' };
  }
  const meta: Obj = value ?? {};
  const name = meta.name;
  if (name == null || name === '') report('metadata.name', 'is required');
  else if (typeof name !== 'string') report('metadata.name', `must be a string, got ${jsonTypeName(name)}`);
  else {
    const problem = rules.nameProblem(name);
    if (problem !== undefined) report('metadata.name', problem);
  }
  const generation = meta.generation;
  if (generation != null && !isCount(generation, 0)) report('metadata.generation', `must be an integer >= 0, got ${show(generation)}`);
  const finalizers = rules.finalizers ? meta.finalizers : undefined;
  const finalizerList = Array.isArray(finalizers) && finalizers.every((f) => typeof f === 'string') ? [...(finalizers as string[])] : undefined;
  if (finalizers != null && !finalizerList) report('metadata.finalizers', 'must be a list of strings');
  return compact({
    name: typeof name === 'string' ? name : '',
    namespace: optionalString(meta, 'namespace', report),
    uid: optionalString(meta, 'uid', report),
    generation: typeof generation === 'number' ? generation : undefined,
    resourceVersion: optionalString(meta, 'resourceVersion', report),
    labels: stringMap(meta, 'labels', report),
    annotations: stringMap(meta, 'annotations', report),
    finalizers: finalizerList,
    deletionTimestamp: optionalString(meta, 'deletionTimestamp', report),
  });
}

/** A string of metadata (null counts as absent: the API server drops null fields). */
function optionalString(meta: Obj, key: string, report: Report): string | undefined {
  const value = meta[key];
  if (value == null || typeof value === 'string') return value ?? undefined;
  report(`metadata.${key}`, `must be a string, got ${jsonTypeName(value)}`);
  return undefined;
}

/** Labels or annotations: a map of strings to strings; undefined when absent or malformed, which is reported. */
function stringMap(meta: Obj, key: string, report: Report): Record<string, string> | undefined {
  const value = meta[key];
  if (value == null) return undefined;
  if (isObject(value) && Object.values(value).every((v) => typeof v === 'string')) return { ...(value as Record<string, string>) };
  report(`metadata.${key}`, 'must be a map of strings to strings');
  return undefined;
}

/** A Kubernetes quantity: "500m", "1Gi", or a plain number. */
export type Quantity = string | number;

/** The `requests`/`limits` part of a container's ResourceRequirements, passed to the pod as given. */
export interface ResourceRequirements {
  requests?: Record<string, Quantity>;
  limits?: Record<string, Quantity>;
}

/** The object without its undefined entries, so an absent optional field stays absent (and out of rendered output). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The largest count the validators accept (isCount): JavaScript reads larger integers inexactly. The
 * API server stores int64, so a CRD integer field carries this as its `maximum` to refuse at admission
 * what validation would refuse later.
 */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;

export function isCount(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

/** A value's type in "got ..." of a message, as the schema interpreter names it (api/schema/json-types.ts). */
export { jsonTypeName as typeName };

/** A value as it would appear in the manifest, for messages. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The issues as one line, for status messages. */
export function joinIssues(errors: readonly FieldIssue[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ');
}

/** Runs `check` with a collecting report: what it read when nothing was reported, else every problem. */
export function collect<T>(check: (report: Report) => T | undefined): { valid: true; value: T } | { valid: false; errors: FieldIssue[]; message: string } {
  const errors: FieldIssue[] = [];
  const value = check((field, message) => errors.push({ field, message }));
  if (errors.length > 0 || value === undefined) return { valid: false, errors, message: joinIssues(errors) };
  return { valid: true, value };
}
