// The one check of a KybernateRestore, run by its workflow before it waits for a checkpoint or creates a
// pod, and by the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages; on
// success it returns a clean copy with the CRD's defaults filled in and unknown fields dropped.
//
// The spec is checked by the one schema interpreter (api/schema/check.ts) against the declaration the
// CRD is generated from, CEL rules included. Pure: deterministic, no I/O, no clock.

import { RESTORE_KIND } from './constants.ts';
import { KybernateMessage } from './messages.ts';
import { RESTORE_PHASES } from './values.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { text, wholeNumber } from '../common/status-reader.ts';
import { restoreSpecSchema } from '../crd/kybernate-restore-schema.ts';
import { specChecker } from '../schema/spec-checker.ts';
import { kybernateHead, kybernateStatus } from './validate-common.ts';
import type { KybernateRestore, KybernateRestoreStatus } from './types.ts';

export type KybernateRestoreValidation = Validation<'restore', KybernateRestore>;

export const validateKybernateRestore: (obj: unknown) => KybernateRestoreValidation = kindValidator('restore', {
  head: kybernateHead(RESTORE_KIND, KybernateMessage.restoreName),
  spec: specChecker(restoreSpecSchema),
  status: kybernateStatus<KybernateRestoreStatus>(RESTORE_PHASES, { restoredPodName: text, restoredPodUID: text, restoreTime: text, counterValue: wholeNumber }),
});
