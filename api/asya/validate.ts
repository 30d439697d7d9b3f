// The one check of an AsyncActor, run by the workflow before it renders or injects anything and by the
// offline CLI. The spec is checked by the one schema interpreter (api/schema/check.ts) against the
// declaration the CRD is generated from, CEL rules included, so a spec that passed admission passes here
// and one refused is refused in the same words. Beyond the CRD it refuses what only fails later and the API server cannot see:
// a standalone pod template without its `asya-runtime` container or with names we reserve (the
// template is kept as given by the CRD), and a workloadRef into another namespace (CEL cannot read
// metadata.namespace). Those are reported by the workflow as WorkloadReady=False/ValidationError.
// On success it returns a clean copy with the CRD's defaults filled in and unknown fields dropped, the
// way the API server stores the object.
// Pure: deterministic, no I/O, no clock.

import { isObject, show, type FieldIssue, type Obj, type ObjectMetadata, type Report } from '../common/checks.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { conditions, count, flag, oneOf, statusReader, text } from '../common/status-reader.ts';
import { asyncActorSpecSchema } from '../crd/async-actor-schema.ts';
import { specChecker } from '../schema/spec-checker.ts';
import { ASYA_API_VERSION, ASYNC_ACTOR_KIND } from './constants.ts';
import { AsyncActorMessage } from './messages.ts';
import { ACTOR_NAME_PATTERN, MAX_ACTOR_NAME_LENGTH } from './patterns.ts';
import { MODES } from './values.ts';
import type { AsyncActor, AsyncActorStatus } from './types.ts';

export type AsyncActorIssue = FieldIssue;
export type AsyncActorValidation = Validation<'actor', AsyncActor>;

const ACTOR_NAME = new RegExp(ACTOR_NAME_PATTERN);

/** The stored status, keeping only well-typed fields. */
const readStatus = statusReader<AsyncActorStatus>({
  mode: oneOf(MODES),
  resolvedTarget: text,
  runtimeInjected: flag,
  conflictCount: count,
  lastConflictTime: text,
  replicas: count,
  readyReplicas: count,
  desiredReplicas: count,
  totalReplicas: count,
  pendingReplicas: count,
  failingPods: count,
  status: text,
  conditions,
  observedGeneration: count,
});

export const validateAsyncActor: (obj: unknown) => AsyncActorValidation = kindValidator('actor', {
  head: {
    apiVersion: ASYA_API_VERSION,
    kind: ASYNC_ACTOR_KIND,
    nameProblem: (name: string) => (ACTOR_NAME.test(name) && name.length <= MAX_ACTOR_NAME_LENGTH ? undefined : AsyncActorMessage.actorName),
    finalizers: true,
  },
  spec: specChecker(asyncActorSpecSchema, checkBeyondSchema),
  status: readStatus,
});

/**
 * What no schema states and needs the object's metadata: a workloadRef into another namespace (CEL
 * cannot read metadata.namespace). The pod template's own check sits on its node (./pod-template.ts).
 */
function checkBeyondSchema(_spec: unknown, raw: Obj, report: Report, metadata: ObjectMetadata): void {
  const ref = raw.workloadRef;
  // The ScaledObject must sit next to its target and our label names the actor by name only.
  if (isObject(ref) && typeof ref.namespace === 'string' && metadata.namespace && ref.namespace !== metadata.namespace) {
    report('spec.workloadRef.namespace', `must be the AsyncActor's own namespace (${metadata.namespace}), got ${show(ref.namespace)}: an actor binds only to workloads next to it`);
  }
}
