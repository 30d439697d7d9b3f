// What the three Kybernate validators check alike beyond the field checks every kind shares
// (api/common/checks.ts): the object's head with Kybernate's name rules, storage, a node selector, and
// the lenient reading of a stored status. Pure.

import { KYBERNATE_API_VERSION } from './constants.ts';
import { DEFAULT_STORAGE_TYPE } from './defaults.ts';
import { KybernateMessage } from './messages.ts';
import { LABEL_VALUE_PATTERN, MAX_LABEL_VALUE_LENGTH, MAX_OBJECT_NAME_LENGTH, NO_WHITESPACE_PATTERN, OBJECT_NAME_PATTERN } from './patterns.ts';
import { STORAGE_TYPES } from './values.ts';
import {
  checkEnum,
  checkHead as checkObjectHead,
  checkString,
  compact,
  isCount,
  isObject,
  optionalString,
  show,
  typeName,
  type Head,
  type Obj,
  type Report,
} from '../common/checks.ts';
import type { Condition, StorageSpec } from './types.ts';

const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const NO_WHITESPACE = new RegExp(NO_WHITESPACE_PATTERN);
const LABEL_VALUE = new RegExp(LABEL_VALUE_PATTERN);

/** A name limit beyond the API server's own (a DNS-1123 subdomain), with the CEL rule's message. */
export interface NameLimit {
  maxLength: number;
  message: string;
}

/** apiVersion, kind, metadata and the spec object; undefined when there is no spec to check. */
export function checkHead(obj: unknown, kind: string, report: Report, nameLimit?: NameLimit): Head | undefined {
  return checkObjectHead(obj, { apiVersion: KYBERNATE_API_VERSION, kind, nameProblem: (name) => nameProblem(name, nameLimit), finalizers: true }, report);
}

function nameProblem(name: string, nameLimit: NameLimit | undefined): string | undefined {
  if (!OBJECT_NAME.test(name) || name.length > MAX_OBJECT_NAME_LENGTH) {
    return `must be a DNS-1123 subdomain (at most ${MAX_OBJECT_NAME_LENGTH} lower-case letters, digits, '-' and '.', starting and ending with a letter or digit), got ${show(name)}`;
  }
  return nameLimit && name.length > nameLimit.maxLength ? nameLimit.message : undefined;
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
