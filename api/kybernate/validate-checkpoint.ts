// The one check of a KybernateCheckpoint, run by its workflow before it touches the pod or the node and
// by the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages, so a spec that
// passed admission passes here; on success it returns a clean copy with the CRD's defaults filled in
// and unknown fields dropped, the way the API server stores the object.
//
// The spec is checked by the one schema interpreter (api/schema/check.ts) against the declaration the
// CRD is generated from, CEL rules included. Pure: deterministic, no I/O, no clock.

import { CHECKPOINT_KIND } from './constants.ts';
import { CHECKPOINT_PHASES } from './values.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { text } from '../common/status-reader.ts';
import { checkpointSpecSchema } from '../crd/kybernate-checkpoint-schema.ts';
import { specChecker } from '../schema/spec-checker.ts';
import { kybernateHead, kybernateStatus } from './validate-common.ts';
import type { KybernateCheckpoint, KybernateCheckpointStatus } from './types.ts';

export type KybernateCheckpointValidation = Validation<'checkpoint', KybernateCheckpoint>;

export const validateKybernateCheckpoint: (obj: unknown) => KybernateCheckpointValidation = kindValidator('checkpoint', {
  head: kybernateHead(CHECKPOINT_KIND),
  spec: specChecker(checkpointSpecSchema),
  status: kybernateStatus<KybernateCheckpointStatus>(CHECKPOINT_PHASES, {
    checkpointRef: text,
    checkpointSize: text,
    startTime: text,
    completionTime: text,
    nodeName: text,
    containerID: text,
  }),
});
