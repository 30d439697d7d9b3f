// What the three Kybernate validators check alike beyond the checks every kind shares (api/common/):
// the object's head with Kybernate's name rules, storage, a node selector, and the status fields every
// Kybernate kind has. Pure.

import { KYBERNATE_API_VERSION } from './constants.ts';
import { DEFAULT_STORAGE_TYPE } from './defaults.ts';
import { KybernateMessage } from './messages.ts';
import { LABEL_VALUE_PATTERN, MAX_LABEL_VALUE_LENGTH, MAX_OBJECT_NAME_LENGTH, MAX_OWNER_NAME_LENGTH, OBJECT_NAME_PATTERN } from './patterns.ts';
import { STORAGE_TYPES } from './values.ts';
import { checkMap, checkString, compact, optionalString, show, type HeadRules, type Obj, type Report } from '../common/checks.ts';
import { defaultedEnum } from '../common/defaulted.ts';
import { conditions, count, oneOf, statusReader, text, type Condition, type StatusFields } from '../common/status-reader.ts';
import { IMAGE_RULES } from '../common/string-rules.ts';
import type { StorageSpec } from './types.ts';

const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const LABEL_VALUE = new RegExp(LABEL_VALUE_PATTERN);

/**
 * The head rules of a Kybernate kind: its API version, a DNS-1123 subdomain name, finalizers kept.
 * `ownerNameMessage` is for the kinds that label their pod with their own name (restores, workloads):
 * such a name is at most a label value long, refused in the CEL rule's words (ownerNameRules).
 */
export function kybernateHead(kind: string, ownerNameMessage?: string): HeadRules {
  return { apiVersion: KYBERNATE_API_VERSION, kind, nameProblem: (name) => nameProblem(name, ownerNameMessage), finalizers: true };
}

function nameProblem(name: string, ownerNameMessage: string | undefined): string | undefined {
  if (!OBJECT_NAME.test(name) || name.length > MAX_OBJECT_NAME_LENGTH) {
    return `must be a DNS-1123 subdomain (at most ${MAX_OBJECT_NAME_LENGTH} lower-case letters, digits, '-' and '.', starting and ending with a letter or digit), got ${show(name)}`;
  }
  return ownerNameMessage !== undefined && name.length > MAX_OWNER_NAME_LENGTH ? ownerNameMessage : undefined;
}

/** Storage with its type defaulted, and the CEL rules of the storage schema (registry needs image; s3 needs bucket and key). */
export function checkStorage(value: Obj, path: string, report: Report): StorageSpec {
  const type = defaultedEnum(value, 'type', path, report, STORAGE_TYPES, DEFAULT_STORAGE_TYPE);
  const image = optionalString(value, 'image', path, report, IMAGE_RULES);
  const bucket = optionalString(value, 'bucket', path, report, { minLength: 1 });
  const key = optionalString(value, 'key', path, report, { minLength: 1 });
  // On what is present: a malformed field counts as present, as has() sees it.
  if (type === 'registry' && value.image == null) report(path, KybernateMessage.registryNeedsImage);
  if (type === 's3' && (value.bucket == null || value.key == null)) report(path, KybernateMessage.s3NeedsBucketAndKey);
  return compact({ type, image, bucket, key });
}

const LABEL_VALUE_RULES = {
  pattern: LABEL_VALUE,
  what: `a label value (at most ${MAX_LABEL_VALUE_LENGTH} letters, digits, '-', '_' and '.', starting and ending with a letter or digit)`,
  maxLength: MAX_LABEL_VALUE_LENGTH,
};

/** A pod's nodeSelector: label keys to label values. The keys are left to the API server (their syntax is long). */
export function checkNodeSelector(value: unknown, path: string, report: Report): Record<string, string> {
  return checkMap(value, path, report, 'must be a map of node labels to values', (label, field): label is string => checkString(label, field, report, LABEL_VALUE_RULES));
}

/** The status fields every Kybernate kind has. */
interface KybernateStatus {
  phase?: string;
  message?: string;
  conditions?: Condition[];
  observedGeneration?: number;
}

/**
 * The lenient reader (api/common/status-reader.ts) of a Kybernate kind's status: its phase (one of
 * `phases`), its own `fields`, then the message, conditions and observed generation every kind has.
 */
export function kybernateStatus<T extends KybernateStatus>(phases: readonly NonNullable<T['phase']>[], fields: Omit<StatusFields<T>, keyof KybernateStatus>): (status: Obj) => T {
  return statusReader<T>({ phase: oneOf(phases), ...fields, message: text, conditions, observedGeneration: count } as StatusFields<T>);
}
