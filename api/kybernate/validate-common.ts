// What the three Kybernate validators check alike: the object's head (apiVersion, kind, metadata,
// spec), storage, resources, a node selector, and the lenient reading of a stored status. Pure.

import { KYBERNATE_API_VERSION } from './constants.ts';
import { DEFAULT_STORAGE_TYPE } from './defaults.ts';
import { KybernateMessage } from './messages.ts';
import {
  LABEL_VALUE_PATTERN,
  MAX_LABEL_VALUE_LENGTH,
  MAX_OBJECT_NAME_LENGTH,
  NO_WHITESPACE_PATTERN,
  OBJECT_NAME_PATTERN,
  QUANTITY_STRING_PATTERN,
} from './patterns.ts';
import { STORAGE_TYPES } from './values.ts';
import {
  checkEnum,
  checkString,
  compact,
  isCount,
  isObject,
  joinIssues,
  optionalString,
  show,
  typeName,
  type KybernateIssue,
  type Obj,
  type Report,
} from './checks.ts';
import type { Condition, KybernateMetadata, Quantity, ResourceRequirements, StorageSpec } from './types.ts';

const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const NO_WHITESPACE = new RegExp(NO_WHITESPACE_PATTERN);
const QUANTITY = new RegExp(QUANTITY_STRING_PATTERN);
const LABEL_VALUE = new RegExp(LABEL_VALUE_PATTERN);

export interface Head {
  metadata: KybernateMetadata;
  spec: Obj;
  status: Obj | undefined;
}

/** A name limit beyond the API server's own (a DNS-1123 subdomain), with the CEL rule's message. */
export interface NameLimit {
  maxLength: number;
  message: string;
}

/**
 * Runs `check` with a collecting report and shapes the answer every validator gives: the object with
 * its defaults, or every problem found.
 */
export function collect<T>(check: (report: Report) => T | undefined): { valid: true; value: T } | { valid: false; errors: KybernateIssue[]; message: string } {
  const errors: KybernateIssue[] = [];
  const value = check((field, message) => errors.push({ field, message }));
  if (errors.length > 0 || value === undefined) return { valid: false, errors, message: joinIssues(errors) };
  return { valid: true, value };
}

/** apiVersion, kind, metadata and the spec object; undefined when there is no spec to check. */
export function checkHead(obj: unknown, kind: string, report: Report, nameLimit?: NameLimit): Head | undefined {
  if (!isObject(obj)) {
    report('object', `must be a ${kind} object, got ${typeName(obj)}`);
    return undefined;
  }
  if (obj.apiVersion !== KYBERNATE_API_VERSION) report('apiVersion', `must be ${KYBERNATE_API_VERSION}, got ${show(obj.apiVersion)}`);
  if (obj.kind !== kind) report('kind', `must be ${kind}, got ${show(obj.kind)}`);
  const metadata = checkMetadata(obj.metadata, report, nameLimit);
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

function checkMetadata(value: unknown, report: Report, nameLimit: NameLimit | undefined): KybernateMetadata {
  if (value != null && !isObject(value)) {
    report('metadata', `must be an object, got ${typeName(value)}`);
    return { name: '' };
  }
  const meta: Obj = value ?? {};
  const name = meta.name;
  if (name == null || name === '') report('metadata.name', 'required');
  else if (typeof name !== 'string') report('metadata.name', `must be a string, got ${typeName(name)}`);
  else if (!OBJECT_NAME.test(name) || name.length > MAX_OBJECT_NAME_LENGTH) {
    report('metadata.name', `must be a DNS-1123 subdomain (at most ${MAX_OBJECT_NAME_LENGTH} lower-case letters, digits, '-' and '.', starting and ending with a letter or digit), got ${show(name)}`);
  } else if (nameLimit && name.length > nameLimit.maxLength) report('metadata.name', nameLimit.message);
  const generation = meta.generation;
  if (generation != null && !isCount(generation, 0)) report('metadata.generation', `must be an integer >= 0, got ${show(generation)}`);
  const finalizers = meta.finalizers;
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

/** Storage with its type defaulted, and the CEL rules of the storage schema (registry needs image; s3 needs bucket and key). */
export function checkStorage(value: Obj, path: string, report: Report): StorageSpec {
  const type = value.type ?? DEFAULT_STORAGE_TYPE;
  checkEnum(type, STORAGE_TYPES, `${path}.type`, report);
  const image = optionalString(value, 'image', path, report, { pattern: NO_WHITESPACE, what: 'an image reference without whitespace', minLength: 1 });
  const bucket = optionalString(value, 'bucket', path, report, { minLength: 1 });
  const key = optionalString(value, 'key', path, report, { minLength: 1 });
  // On what is present: a malformed field counts as present, as has() sees it.
  if (type === 'registry' && value.image == null) report(path, KybernateMessage.registryNeedsImage);
  if (type === 's3' && (value.bucket == null || value.key == null)) report(path, KybernateMessage.s3NeedsBucketAndKey);
  return compact({ type: type as StorageSpec['type'], image, bucket, key });
}

/** `requests` and `limits` of a container's ResourceRequirements; other keys are dropped, as the API server prunes them. */
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

function checkQuantities(value: unknown, path: string, report: Report): Record<string, Quantity> {
  if (!isObject(value)) {
    report(path, `must be a map of resource names to quantities, got ${typeName(value)}`);
    return {};
  }
  const out: [string, Quantity][] = [];
  for (const key of Object.keys(value).sort()) {
    const quantity = value[key];
    if (quantity == null) continue;
    // Numbers must be integers, as the CRD's int-or-string type requires: half a CPU is "500m" or "0.5".
    if (typeof quantity === 'string' ? QUANTITY.test(quantity) : isCount(quantity, 0)) out.push([key, quantity as Quantity]);
    else report(`${path}.${key}`, `must be a non-negative quantity such as "500m", "2Gi" or 4, got ${show(quantity)}`);
  }
  return Object.fromEntries(out);
}

/** A pod's nodeSelector: label keys to label values. The keys are left to the API server (their syntax is long). */
export function checkNodeSelector(value: unknown, path: string, report: Report): Record<string, string> {
  if (!isObject(value)) {
    report(path, `must be a map of node labels to values, got ${typeName(value)}`);
    return {};
  }
  const out: [string, string][] = [];
  for (const key of Object.keys(value).sort()) {
    const label = value[key];
    if (label == null) continue;
    const ok = checkString(label, `${path}.${key}`, report, {
      pattern: LABEL_VALUE,
      what: `a label value (at most ${MAX_LABEL_VALUE_LENGTH} letters, digits, '-', '_' and '.', starting and ending with a letter or digit)`,
      maxLength: MAX_LABEL_VALUE_LENGTH,
    });
    if (ok) out.push([key, label as string]);
  }
  return Object.fromEntries(out);
}

function stringMap(parent: Obj, key: string, parentPath: string, report: Report): Record<string, string> | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  if (isObject(value) && Object.values(value).every((v) => typeof v === 'string')) return { ...(value as Record<string, string>) };
  report(`${parentPath}.${key}`, 'must be a map of strings to strings');
  return undefined;
}

/**
 * Reads a stored status, keeping only well-typed fields: a malformed status never makes the object
 * invalid (the controller rewrites it).
 */
export function statusReader(status: Obj) {
  return {
    text: (key: string): string | undefined => (typeof status[key] === 'string' ? (status[key] as string) : undefined),
    count: (key: string): number | undefined => (isCount(status[key], 0) ? (status[key] as number) : undefined),
    oneOf: <T extends string>(key: string, allowed: readonly T[]): T | undefined =>
      (allowed as readonly unknown[]).includes(status[key]) ? (status[key] as T) : undefined,
    conditions: (): Condition[] | undefined => (Array.isArray(status.conditions) ? status.conditions.filter(isCondition).map((c) => ({ ...c })) : undefined),
  };
}

function isCondition(value: unknown): value is Condition {
  return isObject(value) && typeof value.type === 'string' && (value.status === 'True' || value.status === 'False' || value.status === 'Unknown');
}
