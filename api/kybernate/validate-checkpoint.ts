// The one check of a KybernateCheckpoint, run by its workflow before it touches the pod or the node and
// by the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages, so a spec that
// passed admission passes here; on success it returns a clean copy with the CRD's defaults filled in
// and unknown fields dropped, the way the API server stores the object.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/kybernate/ and
// the shared checks of api/common/ (the validator frame, field checks, status readers).

import { CHECKPOINT_KIND } from './constants.ts';
import { DEFAULT_CHECKPOINT_TIMEOUT, DEFAULT_GPU_ENABLED, DEFAULT_LEAVE_RUNNING } from './defaults.ts';
import { ABSOLUTE_PATH_PATTERN } from './patterns.ts';
import { CHECKPOINT_PHASES } from './values.ts';
import { boolean, compact, optionalObject, optionalString, requiredString, type Obj, type Report } from '../common/checks.ts';
import { integer } from '../common/integers.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { text } from '../common/status-reader.ts';
import { dnsLabelRules, objectNameRules } from '../common/string-rules.ts';
import { checkStorage, kybernateHead, kybernateStatus } from './validate-common.ts';
import type { CheckpointGpuSpec, KybernateCheckpoint, KybernateCheckpointSpec, KybernateCheckpointStatus } from './types.ts';

export type KybernateCheckpointValidation = Validation<'checkpoint', KybernateCheckpoint>;

const ABSOLUTE_PATH = new RegExp(ABSOLUTE_PATH_PATTERN);

export const validateKybernateCheckpoint: (obj: unknown) => KybernateCheckpointValidation = kindValidator('checkpoint', {
  head: kybernateHead(CHECKPOINT_KIND),
  spec: checkSpec,
  status: kybernateStatus<KybernateCheckpointStatus>(CHECKPOINT_PHASES, {
    checkpointRef: text,
    checkpointSize: text,
    startTime: text,
    completionTime: text,
    nodeName: text,
    containerID: text,
  }),
});

function checkSpec(spec: Obj, report: Report): KybernateCheckpointSpec {
  const podName = requiredString(spec, 'podName', 'spec', report, objectNameRules('a pod name (DNS-1123 subdomain)'));
  const containerName = optionalString(spec, 'containerName', 'spec', report, dnsLabelRules('a container name (DNS-1123 label)'));
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
