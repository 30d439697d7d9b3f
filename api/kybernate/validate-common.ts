// What the three Kybernate validators share beyond the frame every kind has (api/common/): the
// object's head with Kybernate's name rules, and the status fields every Kybernate kind has (their
// specs are checked by the schema interpreter, api/schema/check.ts). Pure.

import { KYBERNATE_API_VERSION } from './constants.ts';
import { MAX_OBJECT_NAME_LENGTH, MAX_OWNER_NAME_LENGTH, OBJECT_NAME_PATTERN } from './patterns.ts';
import { show, type HeadRules, type Obj } from '../common/checks.ts';
import { conditions, count, oneOf, statusReader, text, type Condition, type StatusFields } from '../common/status-reader.ts';

const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);

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
