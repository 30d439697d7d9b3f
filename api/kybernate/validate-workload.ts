// The one check of a KybernateWorkload, run by its long-lived workflow whenever the spec changes and by
// the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages; beyond the CRD,
// which keeps the pod template as given, it refuses a template the workflow could never create a pod
// from (no containers, a container without a name or image, two with one name), reported by the
// workflow before it creates anything. On success it returns a clean copy with the CRD's defaults
// filled in and unknown fields dropped.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/kybernate/ and
// the shared checks of api/common/ (the validator frame, field checks, status readers).

import { WORKLOAD_KIND } from './constants.ts';
import { DEFAULT_ACTIVATOR, DEFAULT_IDLE_TIMEOUT, DEFAULT_SCALE_TO_ZERO, DEFAULT_SUSPEND_ENABLED } from './defaults.ts';
import { KybernateMessage } from './messages.ts';
import { DURATION_PATTERN, MAX_DURATION_LENGTH } from './patterns.ts';
import { WORKLOAD_PHASES } from './values.ts';
import { boolean, isObject, optionalObject, requiredObject, typeName, type Obj, type Report } from '../common/checks.ts';
import { defaultedString } from '../common/defaulted.ts';
import { checkReplicaRange, integer } from '../common/integers.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { count, text } from '../common/status-reader.ts';
import { URL_PATH_RULES } from '../common/string-rules.ts';
import { checkStorage, kybernateHead, kybernateStatus } from './validate-common.ts';
import type { ActivatorSpec, KybernateWorkload, KybernateWorkloadSpec, KybernateWorkloadStatus, ScaleToZeroSpec, SuspendSpec } from './types.ts';

export type KybernateWorkloadValidation = Validation<'workload', KybernateWorkload>;

const DURATION_RULES = { pattern: new RegExp(DURATION_PATTERN), what: 'a positive duration such as "30s", "5m" or "1h30m" (whole numbers; units ms, s, m, h)', maxLength: MAX_DURATION_LENGTH };

export const validateKybernateWorkload: (obj: unknown) => KybernateWorkloadValidation = kindValidator('workload', {
  head: kybernateHead(WORKLOAD_KIND, KybernateMessage.workloadName),
  spec: checkSpec,
  status: kybernateStatus<KybernateWorkloadStatus>(WORKLOAD_PHASES, { activeReplicas: count, suspendedCheckpoints: count, lastActivityTime: text, podName: text }),
});

function checkSpec(spec: Obj, report: Report): KybernateWorkloadSpec {
  const template = requiredObject(spec, 'template', 'spec', report);
  if (template) checkPodTemplate(template, 'spec.template', report);
  const suspend = optionalObject(spec, 'suspend', 'spec', report);
  const scaleToZero = optionalObject(spec, 'scaleToZero', 'spec', report);
  const activator = optionalObject(spec, 'activator', 'spec', report);
  return {
    template: template ?? {},
    suspend: checkSuspend(suspend ?? {}, 'spec.suspend', report),
    scaleToZero: checkScaleToZero(scaleToZero ?? {}, 'spec.scaleToZero', report),
    activator: checkActivator(activator ?? {}, 'spec.activator', report),
  };
}

/** What the workflow needs of the pod template to create a pod from it, which the CRD cannot check. */
function checkPodTemplate(template: Obj, path: string, report: Report): void {
  const spec = template.spec;
  if (!isObject(spec)) {
    report(`${path}.spec`, 'required: a pod spec with at least one container');
    return;
  }
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    report(`${path}.spec.containers`, 'required: a list of at least one container');
    return;
  }
  const seen = new Set<string>();
  containers.forEach((container, i) => {
    const at = `${path}.spec.containers[${i}]`;
    if (!isObject(container)) {
      report(at, `must be a container object, got ${typeName(container)}`);
      return;
    }
    if (typeof container.name !== 'string' || container.name === '') report(`${at}.name`, 'required: every container has a name');
    else if (seen.has(container.name)) report(`${at}.name`, `duplicate container name "${container.name}"`);
    else seen.add(container.name);
    if (typeof container.image !== 'string' || container.image === '') report(`${at}.image`, 'required: every container has an image');
  });
}

function checkSuspend(value: Obj, path: string, report: Report): SuspendSpec {
  const idleTimeout = defaultedString(value, 'idleTimeout', path, report, DURATION_RULES, DEFAULT_IDLE_TIMEOUT);
  const storage = optionalObject(value, 'storage', path, report);
  return {
    enabled: boolean(value, 'enabled', path, report, DEFAULT_SUSPEND_ENABLED),
    idleTimeout,
    storage: checkStorage(storage ?? {}, `${path}.storage`, report),
  };
}

function checkScaleToZero(value: Obj, path: string, report: Report): ScaleToZeroSpec {
  const scale: ScaleToZeroSpec = {
    enabled: boolean(value, 'enabled', path, report, DEFAULT_SCALE_TO_ZERO.enabled),
    minReplicas: integer(value, 'minReplicas', path, report, { min: 0, fallback: DEFAULT_SCALE_TO_ZERO.minReplicas }),
    maxReplicas: integer(value, 'maxReplicas', path, report, { min: 1, fallback: DEFAULT_SCALE_TO_ZERO.maxReplicas }),
  };
  return checkReplicaRange(scale, path, report, KybernateMessage.replicaBounds);
}

function checkActivator(value: Obj, path: string, report: Report): ActivatorSpec {
  const healthPath = defaultedString(value, 'healthPath', path, report, URL_PATH_RULES, DEFAULT_ACTIVATOR.healthPath);
  const queueTimeout = defaultedString(value, 'queueTimeout', path, report, DURATION_RULES, DEFAULT_ACTIVATOR.queueTimeout);
  return {
    enabled: boolean(value, 'enabled', path, report, DEFAULT_ACTIVATOR.enabled),
    port: integer(value, 'port', path, report, { min: 1, max: 65535, fallback: DEFAULT_ACTIVATOR.port }),
    healthPath,
    queueTimeout,
  };
}
