// Field checks shared by the validators of the kinds beyond ModelDeployment (FlameCluster, AsyncActor,
// the Kybernate kinds). Each reports a problem through `report` and returns what it could read, so one
// pass collects every problem of an object. Pure (no imports), so it runs inside workflow code too.

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

const QUANTITY = new RegExp(QUANTITY_STRING_PATTERN);

export interface StringRules {
  pattern?: RegExp;
  /** How the pattern reads in a message, e.g. "a DNS-1123 label". */
  what?: string;
  minLength?: number;
  maxLength?: number;
}

export function checkString(value: unknown, field: string, report: Report, rules: StringRules): boolean {
  const fail = (message: string) => (report(field, message), false);
  if (typeof value !== 'string') return fail(`must be a string, got ${typeName(value)}`);
  if (rules.minLength !== undefined && value.length < rules.minLength) return fail(rules.minLength === 1 ? 'must not be empty' : `must have at least ${rules.minLength} characters`);
  if (rules.maxLength !== undefined && value.length > rules.maxLength) return fail(`must have at most ${rules.maxLength} characters, got ${value.length}`);
  if (rules.pattern && !rules.pattern.test(value)) return fail(`must be ${rules.what ?? `a string matching ${rules.pattern.source}`}, got ${show(value)}`);
  return true;
}

/** A required, non-empty string checked against `rules`; undefined (and reported) when absent or wrong. */
export function requiredString(parent: Obj, key: string, parentPath: string, report: Report, rules: StringRules): string | undefined {
  const value = parent[key];
  const field = `${parentPath}.${key}`;
  if (value == null || value === '') {
    report(field, 'required');
    return undefined;
  }
  return checkString(value, field, report, { ...rules, minLength: 1 }) ? (value as string) : undefined;
}

/** An optional string checked against `rules` (null counts as absent: the API server drops null fields). */
export function optionalString(parent: Obj, key: string, parentPath: string, report: Report, rules: StringRules = {}): string | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  return checkString(value, `${parentPath}.${key}`, report, rules) ? (value as string) : undefined;
}

export function checkEnum<T extends string>(value: unknown, allowed: readonly T[], field: string, report: Report): value is T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return true;
  report(field, `must be one of ${allowed.join(', ')}, got ${show(value)}`);
  return false;
}

/** A required enumerated string; undefined (and reported) when absent, empty or not one of `allowed`. */
export function requiredEnum<T extends string>(parent: Obj, key: string, parentPath: string, report: Report, allowed: readonly T[]): T | undefined {
  const value = parent[key];
  const field = `${parentPath}.${key}`;
  if (value == null || value === '') report(field, 'required');
  else if (checkEnum(value, allowed, field, report)) return value;
  return undefined;
}

/** An optional enumerated string; undefined when absent, and reported (and undefined) when not one of `allowed`. */
export function optionalEnum<T extends string>(parent: Obj, key: string, parentPath: string, report: Report, allowed: readonly T[]): T | undefined {
  const value = parent[key];
  return value != null && checkEnum(value, allowed, `${parentPath}.${key}`, report) ? value : undefined;
}

/** A boolean, or the default when absent. */
export function boolean(parent: Obj, key: string, parentPath: string, report: Report, fallback: boolean): boolean {
  const value = parent[key];
  if (value == null) return fallback;
  if (typeof value === 'boolean') return value;
  report(`${parentPath}.${key}`, `must be a boolean, got ${typeName(value)}`);
  return fallback;
}

/** The object under `key`; undefined when absent, and reported when not an object. */
export function optionalObject(parent: Obj, key: string, parentPath: string, report: Report): Obj | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  if (isObject(value)) return value;
  report(`${parentPath}.${key}`, `must be an object, got ${typeName(value)}`);
  return undefined;
}

/** The object under `key`; undefined (and reported) when absent or not an object. */
export function requiredObject(parent: Obj, key: string, parentPath: string, report: Report): Obj | undefined {
  const value = parent[key];
  if (value == null) report(`${parentPath}.${key}`, 'required');
  else if (!isObject(value)) report(`${parentPath}.${key}`, `must be an object, got ${typeName(value)}`);
  else return value;
  return undefined;
}

/** A map of strings to strings (labels, annotations); undefined when absent or malformed, which is reported. */
export function stringMap(parent: Obj, key: string, parentPath: string, report: Report): Record<string, string> | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  if (isObject(value) && Object.values(value).every((v) => typeof v === 'string')) return { ...(value as Record<string, string>) };
  report(`${parentPath}.${key}`, 'must be a map of strings to strings');
  return undefined;
}

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
    report('object', `must be ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} object, got ${typeName(obj)}`);
    return undefined;
  }
  if (obj.apiVersion !== apiVersion) report('apiVersion', `must be ${apiVersion}, got ${show(obj.apiVersion)}`);
  if (obj.kind !== kind) report('kind', `must be ${kind}, got ${show(obj.kind)}`);
  const metadata = checkMetadata(obj.metadata, rules, report);
  if (obj.spec == null) {
    report('spec', 'required');
    return undefined;
  }
  if (!isObject(obj.spec)) {
    report('spec', `must be an object, got ${typeName(obj.spec)}`);
    return undefined;
  }
  return { metadata, spec: obj.spec, status: isObject(obj.status) ? obj.status : undefined };
}

function checkMetadata(value: unknown, rules: HeadRules, report: Report): ObjectMetadata {
  if (value != null && !isObject(value)) {
    report('metadata', `must be an object, got ${typeName(value)}`);
    return { name: '' };
  }
  const meta: Obj = value ?? {};
  const name = meta.name;
  if (name == null || name === '') report('metadata.name', 'required');
  else if (typeof name !== 'string') report('metadata.name', `must be a string, got ${typeName(name)}`);
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
    namespace: optionalString(meta, 'namespace', 'metadata', report),
    uid: optionalString(meta, 'uid', 'metadata', report),
    generation: typeof generation === 'number' ? generation : undefined,
    resourceVersion: optionalString(meta, 'resourceVersion', 'metadata', report),
    labels: stringMap(meta, 'labels', 'metadata', report),
    annotations: stringMap(meta, 'annotations', 'metadata', report),
    finalizers: finalizerList,
    deletionTimestamp: optionalString(meta, 'deletionTimestamp', 'metadata', report),
  });
}

/** A Kubernetes quantity: "500m", "1Gi", or a plain number. */
export type Quantity = string | number;

/** The `requests`/`limits` part of a container's ResourceRequirements, passed to the pod as given. */
export interface ResourceRequirements {
  requests?: Record<string, Quantity>;
  limits?: Record<string, Quantity>;
}

/**
 * `requests` and `limits` of a container's ResourceRequirements; other keys are dropped, as the API server
 * prunes them. A null quantity counts as absent (the API server drops null fields), not as a bad one.
 */
export function checkResources(value: unknown, path: string, report: Report): ResourceRequirements {
  if (!isObject(value)) {
    report(path, `must be an object with requests and/or limits, got ${typeName(value)}`);
    return {};
  }
  return compact({
    requests: value.requests == null ? undefined : checkQuantities(value.requests, `${path}.requests`, report),
    limits: value.limits == null ? undefined : checkQuantities(value.limits, `${path}.limits`, report),
  });
}

/** A container's `resources` under `parent`, when present. */
export function optionalResources(parent: Obj, parentPath: string, report: Report): ResourceRequirements | undefined {
  return parent.resources == null ? undefined : checkResources(parent.resources, `${parentPath}.resources`, report);
}

function checkQuantities(value: unknown, path: string, report: Report): Record<string, Quantity> {
  return checkMap(value, path, report, 'must be a map of resource names to quantities', (quantity, field): quantity is Quantity => {
    // Numbers must be integers, as the CRD's int-or-string type requires: half a CPU is "500m" or "0.5".
    if (typeof quantity === 'string' ? QUANTITY.test(quantity) : isCount(quantity, 0)) return true;
    report(field, `must be a non-negative quantity such as "500m", "2Gi" or 4, got ${show(quantity)}`);
    return false;
  });
}

/**
 * A map whose values `entry` checks (and reports under `<path>.<key>`), read in sorted key order so the
 * result does not depend on the order of the manifest. A null value counts as absent (the API server
 * drops null fields); `notAMap` is the message when the value is no map at all.
 */
export function checkMap<V>(value: unknown, path: string, report: Report, notAMap: string, entry: (item: unknown, field: string) => item is V): Record<string, V> {
  if (!isObject(value)) {
    report(path, `${notAMap}, got ${typeName(value)}`);
    return {};
  }
  const out: [string, V][] = [];
  for (const key of Object.keys(value).sort()) {
    const item = value[key];
    if (item != null && entry(item, `${path}.${key}`)) out.push([key, item]);
  }
  return Object.fromEntries(out);
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

export function typeName(value: unknown): string {
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
