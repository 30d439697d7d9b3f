// The frame every kind's validator shares: the head (apiVersion, kind, metadata, the spec object), the
// kind's own spec check, the lenient reading of a stored status, and every problem collected in one
// pass. A kind supplies only what is its own (kindValidator's `checks`); the result names the object
// by the key callers already read (`cluster`, `actor`, `checkpoint`, ...). Pure, so it runs inside
// workflow code too.

import { checkHead, collect, type FieldIssue, type HeadRules, type Obj, type ObjectMetadata, type Report } from './checks.ts';

export interface KindChecks<Spec, Status> {
  head: HeadRules;
  /** Checks the spec and returns the clean copy; `metadata` is there for rules that span both (name lengths, namespaces). */
  spec: (spec: Obj, report: Report, metadata: ObjectMetadata) => Spec;
  /** Reads a stored status; undefined leaves it out. Never reports: a malformed status is not the user's error. */
  status: (status: Obj) => Status | undefined;
}

export interface CheckedObject<Spec, Status> {
  apiVersion: string;
  kind: string;
  metadata: ObjectMetadata;
  spec: Spec;
  status?: Status;
}

export type Invalid = { valid: false; errors: FieldIssue[]; message: string };
export type Validation<Key extends string, T> = ({ valid: true } & { [K in Key]: T }) | Invalid;

/** The validator of one kind: `(obj) => { valid: true, [key]: <clean copy> }`, or every problem found. */
export function kindValidator<Key extends string, Spec, Status>(key: Key, checks: KindChecks<Spec, Status>): (obj: unknown) => Validation<Key, CheckedObject<Spec, Status>> {
  return (obj) => {
    const result = collect((report) => checkObject(obj, checks, report));
    return result.valid ? ({ valid: true, [key]: result.value } as { valid: true } & { [K in Key]: CheckedObject<Spec, Status> }) : result;
  };
}

/** Every check reports through `report` and returns what it could read; the result is used only when nothing was reported. */
function checkObject<Spec, Status>(obj: unknown, checks: KindChecks<Spec, Status>, report: Report): CheckedObject<Spec, Status> | undefined {
  const head = checkHead(obj, checks.head, report);
  if (!head) return undefined;
  const spec = checks.spec(head.spec, report, head.metadata);
  const status = head.status ? checks.status(head.status) : undefined;
  return { apiVersion: checks.head.apiVersion, kind: checks.head.kind, metadata: head.metadata, spec, ...(status ? { status } : {}) };
}
