// The one check of a KybernateRestore, run by its workflow before it waits for a checkpoint or creates a
// pod, and by the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages; on
// success it returns a clean copy with the CRD's defaults filled in and unknown fields dropped.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/kybernate/ and
// the shared checks of api/common/ (the validator frame, field checks, status readers).

import { RESTORE_KIND } from './constants.ts';
import { DEFAULT_GPU_ENABLED, DEFAULT_RESTORE_TIMEOUT } from './defaults.ts';
import { KybernateMessage } from './messages.ts';
import { RESTORE_PHASES } from './values.ts';
import { boolean, compact, optionalObject, optionalResources, optionalString, type Obj, type Report } from '../common/checks.ts';
import { integer } from '../common/integers.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { text, wholeNumber } from '../common/status-reader.ts';
import { IMAGE_RULES, objectNameRules } from '../common/string-rules.ts';
import { checkNodeSelector, kybernateHead, kybernateStatus } from './validate-common.ts';
import type { KybernateRestore, KybernateRestoreSpec, KybernateRestoreStatus, TargetPodSpec } from './types.ts';

export type KybernateRestoreValidation = Validation<'restore', KybernateRestore>;

export const validateKybernateRestore: (obj: unknown) => KybernateRestoreValidation = kindValidator('restore', {
  head: kybernateHead(RESTORE_KIND, KybernateMessage.restoreName),
  spec: checkSpec,
  status: kybernateStatus<KybernateRestoreStatus>(RESTORE_PHASES, { restoredPodName: text, restoredPodUID: text, restoreTime: text, counterValue: wholeNumber }),
});

function checkSpec(spec: Obj, report: Report): KybernateRestoreSpec {
  const checkpointRef = optionalString(spec, 'checkpointRef', 'spec', report, objectNameRules('a KybernateCheckpoint name (DNS-1123 subdomain)'));
  const checkpointImage = optionalString(spec, 'checkpointImage', 'spec', report, IMAGE_RULES);
  // The CEL rule, on what is present (a malformed field counts as present, as has() sees it).
  if ((spec.checkpointRef != null) === (spec.checkpointImage != null)) report('spec', KybernateMessage.exactlyOneSource);
  const targetPod = optionalObject(spec, 'targetPod', 'spec', report);
  const gpu = optionalObject(spec, 'gpu', 'spec', report) ?? {};
  return compact({
    checkpointRef,
    checkpointImage,
    targetPod: targetPod ? checkTargetPod(targetPod, 'spec.targetPod', report) : undefined,
    timeout: integer(spec, 'timeout', 'spec', report, { min: 1, fallback: DEFAULT_RESTORE_TIMEOUT }),
    gpu: { enabled: boolean(gpu, 'enabled', 'spec.gpu', report, DEFAULT_GPU_ENABLED) },
  });
}

function checkTargetPod(value: Obj, path: string, report: Report): TargetPodSpec {
  return compact({
    name: optionalString(value, 'name', path, report, objectNameRules('a pod name (DNS-1123 subdomain)')),
    nodeSelector: value.nodeSelector == null ? undefined : checkNodeSelector(value.nodeSelector, `${path}.nodeSelector`, report),
    resources: optionalResources(value, path, report),
  });
}
