// The one check of a KybernateCheckpoint, run by its workflow before it touches the pod or the node and
// by the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages, so a spec that
// passed admission passes here; on success it returns a clean copy with the CRD's defaults filled in
// and unknown fields dropped, the way the API server stores the object.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/kybernate/ and
// the shared field checks of api/common/checks.ts.

import { CHECKPOINT_KIND, KYBERNATE_API_VERSION } from './constants.ts';
import { DEFAULT_CHECKPOINT_TIMEOUT, DEFAULT_GPU_ENABLED, DEFAULT_LEAVE_RUNNING } from './defaults.ts';
import { ABSOLUTE_PATH_PATTERN, DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, OBJECT_NAME_PATTERN } from './patterns.ts';
import { CHECKPOINT_PHASES } from './values.ts';
import { boolean, collect, compact, integer, optionalObject, optionalString, requiredString, type FieldIssue, type Obj, type Report } from '../common/checks.ts';
import { checkHead, checkStorage, statusReader } from './validate-common.ts';
import type { CheckpointGpuSpec, KybernateCheckpoint, KybernateCheckpointSpec, KybernateCheckpointStatus } from './types.ts';

export type KybernateCheckpointValidation =
  | { valid: true; checkpoint: KybernateCheckpoint }
  | { valid: false; errors: FieldIssue[]; message: string };

const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const DNS_LABEL = new RegExp(DNS_LABEL_PATTERN);
const ABSOLUTE_PATH = new RegExp(ABSOLUTE_PATH_PATTERN);

export function validateKybernateCheckpoint(obj: unknown): KybernateCheckpointValidation {
  const result = collect((report) => check(obj, report));
  return result.valid ? { valid: true, checkpoint: result.value } : result;
}

function check(obj: unknown, report: Report): KybernateCheckpoint | undefined {
  const head = checkHead(obj, CHECKPOINT_KIND, report);
  if (!head) return undefined;
  const status = head.status ? readStatus(head.status) : undefined;
  return { apiVersion: KYBERNATE_API_VERSION, kind: CHECKPOINT_KIND, metadata: head.metadata, spec: checkSpec(head.spec, report), ...(status ? { status } : {}) };
}

function checkSpec(spec: Obj, report: Report): KybernateCheckpointSpec {
  const podName = requiredString(spec, 'podName', 'spec', report, { pattern: OBJECT_NAME, what: 'a pod name (DNS-1123 subdomain)', maxLength: MAX_OBJECT_NAME_LENGTH });
  const containerName = optionalString(spec, 'containerName', 'spec', report, {
    pattern: DNS_LABEL,
    what: 'a container name (DNS-1123 label)',
    minLength: 1,
    maxLength: MAX_DNS_LABEL_LENGTH,
  });
  const storage = optionalObject(spec, 'storage', 'spec', report);
  const gpu = optionalObject(spec, 'gpu', 'spec', report);
  return compact({
    podName: podName ?? '',
    containerName,
    leaveRunning: boolean(spec, 'leaveRunning', 'spec', report, DEFAULT_LEAVE_RUNNING),
    timeout: integer(spec, 'timeout', 'spec', report, { min: 1, fallback: DEFAULT_CHECKPOINT_TIMEOUT }),
    storage: checkStorage(storage ?? {}, 'spec.storage', report),
    gpu: checkGpu(gpu ?? {}, 'spec.gpu', report),
  });
}

function checkGpu(value: Obj, path: string, report: Report): CheckpointGpuSpec {
  return compact({
    enabled: boolean(value, 'enabled', path, report, DEFAULT_GPU_ENABLED),
    pluginPath: optionalString(value, 'pluginPath', path, report, { pattern: ABSOLUTE_PATH, what: 'an absolute path', minLength: 1 }),
  });
}

function readStatus(status: Obj): KybernateCheckpointStatus {
  const read = statusReader(status);
  return compact({
    phase: read.oneOf('phase', CHECKPOINT_PHASES),
    checkpointRef: read.text('checkpointRef'),
    checkpointSize: read.text('checkpointSize'),
    startTime: read.text('startTime'),
    completionTime: read.text('completionTime'),
    nodeName: read.text('nodeName'),
    containerID: read.text('containerID'),
    message: read.text('message'),
    conditions: read.conditions(),
    observedGeneration: read.count('observedGeneration'),
  });
}
