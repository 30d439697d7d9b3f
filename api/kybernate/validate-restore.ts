// The one check of a KybernateRestore, run by its workflow before it waits for a checkpoint or creates a
// pod, and by the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages; on
// success it returns a clean copy with the CRD's defaults filled in and unknown fields dropped.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/kybernate/ and
// the shared field checks of api/common/checks.ts.

import { KYBERNATE_API_VERSION, RESTORE_KIND } from './constants.ts';
import { DEFAULT_GPU_ENABLED, DEFAULT_RESTORE_TIMEOUT } from './defaults.ts';
import { KybernateMessage } from './messages.ts';
import { MAX_OBJECT_NAME_LENGTH, MAX_OWNER_NAME_LENGTH, NO_WHITESPACE_PATTERN, OBJECT_NAME_PATTERN } from './patterns.ts';
import { RESTORE_PHASES } from './values.ts';
import { boolean, checkResources, collect, compact, integer, optionalObject, optionalString, type FieldIssue, type Obj, type Report } from '../common/checks.ts';
import { checkHead, checkNodeSelector, statusReader } from './validate-common.ts';
import type { KybernateRestore, KybernateRestoreSpec, KybernateRestoreStatus, TargetPodSpec } from './types.ts';

export type KybernateRestoreValidation =
  | { valid: true; restore: KybernateRestore }
  | { valid: false; errors: FieldIssue[]; message: string };

const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const NO_WHITESPACE = new RegExp(NO_WHITESPACE_PATTERN);

export function validateKybernateRestore(obj: unknown): KybernateRestoreValidation {
  const result = collect((report) => check(obj, report));
  return result.valid ? { valid: true, restore: result.value } : result;
}

function check(obj: unknown, report: Report): KybernateRestore | undefined {
  const head = checkHead(obj, RESTORE_KIND, report, { maxLength: MAX_OWNER_NAME_LENGTH, message: KybernateMessage.restoreName });
  if (!head) return undefined;
  const status = head.status ? readStatus(head.status) : undefined;
  return { apiVersion: KYBERNATE_API_VERSION, kind: RESTORE_KIND, metadata: head.metadata, spec: checkSpec(head.spec, report), ...(status ? { status } : {}) };
}

function checkSpec(spec: Obj, report: Report): KybernateRestoreSpec {
  const checkpointRef = optionalString(spec, 'checkpointRef', 'spec', report, {
    pattern: OBJECT_NAME,
    what: 'a KybernateCheckpoint name (DNS-1123 subdomain)',
    minLength: 1,
    maxLength: MAX_OBJECT_NAME_LENGTH,
  });
  const checkpointImage = optionalString(spec, 'checkpointImage', 'spec', report, { pattern: NO_WHITESPACE, what: 'an image reference without whitespace', minLength: 1 });
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
    name: optionalString(value, 'name', path, report, { pattern: OBJECT_NAME, what: 'a pod name (DNS-1123 subdomain)', minLength: 1, maxLength: MAX_OBJECT_NAME_LENGTH }),
    nodeSelector: value.nodeSelector == null ? undefined : checkNodeSelector(value.nodeSelector, `${path}.nodeSelector`, report),
    resources: value.resources == null ? undefined : checkResources(value.resources, `${path}.resources`, report),
  });
}

function readStatus(status: Obj): KybernateRestoreStatus {
  const read = statusReader(status);
  return compact({
    phase: read.oneOf('phase', RESTORE_PHASES),
    restoredPodName: read.text('restoredPodName'),
    restoredPodUID: read.text('restoredPodUID'),
    restoreTime: read.text('restoreTime'),
    counterValue: typeof status.counterValue === 'number' && Number.isSafeInteger(status.counterValue) ? status.counterValue : undefined,
    message: read.text('message'),
    conditions: read.conditions(),
    observedGeneration: read.count('observedGeneration'),
  });
}
