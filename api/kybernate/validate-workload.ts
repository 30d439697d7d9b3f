// The one check of a KybernateWorkload, run by its long-lived workflow whenever the spec changes and by
// the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages; beyond the CRD,
// which keeps the pod template as given, it refuses a template the workflow could never create a pod
// from (no containers, a container without a name or image, two with one name), reported by the
// workflow before it creates anything. On success it returns a clean copy with the CRD's defaults
// filled in and unknown fields dropped.
//
// The spec is checked by the one schema interpreter (api/schema/check.ts) against the declaration the
// CRD is generated from, CEL rules included. Pure: deterministic, no I/O, no clock.

import { WORKLOAD_KIND } from './constants.ts';
import { KybernateMessage } from './messages.ts';
import { WORKLOAD_PHASES } from './values.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { count, text } from '../common/status-reader.ts';
import { workloadSpecSchema } from '../crd/kybernate-workload-schema.ts';
import { specChecker } from '../schema/spec-checker.ts';
import { kybernateHead, kybernateStatus } from './validate-common.ts';
import type { KybernateWorkload, KybernateWorkloadStatus } from './types.ts';

export type KybernateWorkloadValidation = Validation<'workload', KybernateWorkload>;

export const validateKybernateWorkload: (obj: unknown) => KybernateWorkloadValidation = kindValidator('workload', {
  head: kybernateHead(WORKLOAD_KIND, KybernateMessage.workloadName),
  spec: specChecker(workloadSpecSchema),
  status: kybernateStatus<KybernateWorkloadStatus>(WORKLOAD_PHASES, { activeReplicas: count, suspendedCheckpoints: count, lastActivityTime: text, podName: text }),
});
