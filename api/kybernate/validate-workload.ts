// The one check of a KybernateWorkload, run by its long-lived workflow whenever the spec changes and by
// the offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages; beyond the CRD,
// which keeps the pod template as given, it refuses a template the workflow could never create a pod
// from (no containers, a container without a name or image, two with one name), reported by the
// workflow before it creates anything. On success it returns a clean copy with the CRD's defaults
// filled in and unknown fields dropped.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/kybernate/ and
// the shared field checks of api/common/checks.ts.

import { KYBERNATE_API_VERSION, WORKLOAD_KIND } from './constants.ts';
import { DEFAULT_ACTIVATOR, DEFAULT_IDLE_TIMEOUT, DEFAULT_SCALE_TO_ZERO, DEFAULT_SUSPEND_ENABLED } from './defaults.ts';
import { KybernateMessage } from './messages.ts';
import { DURATION_PATTERN, MAX_DURATION_LENGTH, MAX_OWNER_NAME_LENGTH, MAX_URL_PATH_LENGTH, URL_PATH_PATTERN } from './patterns.ts';
import { WORKLOAD_PHASES } from './values.ts';
import { boolean, checkString, collect, compact, integer, isObject, optionalObject, typeName, type FieldIssue, type Obj, type Report } from '../common/checks.ts';
import { checkHead, checkStorage, statusReader } from './validate-common.ts';
import type { ActivatorSpec, KybernateWorkload, KybernateWorkloadSpec, KybernateWorkloadStatus, ScaleToZeroSpec, SuspendSpec } from './types.ts';

export type KybernateWorkloadValidation =
  | { valid: true; workload: KybernateWorkload }
  | { valid: false; errors: FieldIssue[]; message: string };

const DURATION = new RegExp(DURATION_PATTERN);
const URL_PATH = new RegExp(URL_PATH_PATTERN);
const DURATION_RULES = { pattern: DURATION, what: 'a positive duration such as "30s", "5m" or "1h30m" (whole numbers; units ms, s, m, h)', maxLength: MAX_DURATION_LENGTH };

export function validateKybernateWorkload(obj: unknown): KybernateWorkloadValidation {
  const result = collect((report) => check(obj, report));
  return result.valid ? { valid: true, workload: result.value } : result;
}

function check(obj: unknown, report: Report): KybernateWorkload | undefined {
  const head = checkHead(obj, WORKLOAD_KIND, report, { maxLength: MAX_OWNER_NAME_LENGTH, message: KybernateMessage.workloadName });
  if (!head) return undefined;
  const status = head.status ? readStatus(head.status) : undefined;
  return { apiVersion: KYBERNATE_API_VERSION, kind: WORKLOAD_KIND, metadata: head.metadata, spec: checkSpec(head.spec, report), ...(status ? { status } : {}) };
}

function checkSpec(spec: Obj, report: Report): KybernateWorkloadSpec {
  const template = spec.template;
  if (template == null) report('spec.template', 'required');
  else if (!isObject(template)) report('spec.template', `must be an object, got ${typeName(template)}`);
  else checkPodTemplate(template, 'spec.template', report);
  const suspend = optionalObject(spec, 'suspend', 'spec', report);
  const scaleToZero = optionalObject(spec, 'scaleToZero', 'spec', report);
  const activator = optionalObject(spec, 'activator', 'spec', report);
  return {
    template: isObject(template) ? template : {},
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
  const idleTimeout = value.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
  checkString(idleTimeout, `${path}.idleTimeout`, report, DURATION_RULES);
  const storage = optionalObject(value, 'storage', path, report);
  return {
    enabled: boolean(value, 'enabled', path, report, DEFAULT_SUSPEND_ENABLED),
    idleTimeout: typeof idleTimeout === 'string' ? idleTimeout : DEFAULT_IDLE_TIMEOUT,
    storage: checkStorage(storage ?? {}, `${path}.storage`, report),
  };
}

function checkScaleToZero(value: Obj, path: string, report: Report): ScaleToZeroSpec {
  const scale: ScaleToZeroSpec = {
    enabled: boolean(value, 'enabled', path, report, DEFAULT_SCALE_TO_ZERO.enabled),
    minReplicas: integer(value, 'minReplicas', path, report, { min: 0, fallback: DEFAULT_SCALE_TO_ZERO.minReplicas }),
    maxReplicas: integer(value, 'maxReplicas', path, report, { min: 1, fallback: DEFAULT_SCALE_TO_ZERO.maxReplicas }),
  };
  if (scale.minReplicas > scale.maxReplicas) report(path, KybernateMessage.replicaBounds);
  return scale;
}

function checkActivator(value: Obj, path: string, report: Report): ActivatorSpec {
  const healthPath = value.healthPath ?? DEFAULT_ACTIVATOR.healthPath;
  checkString(healthPath, `${path}.healthPath`, report, { pattern: URL_PATH, what: "a path starting with '/', without whitespace", maxLength: MAX_URL_PATH_LENGTH });
  const queueTimeout = value.queueTimeout ?? DEFAULT_ACTIVATOR.queueTimeout;
  checkString(queueTimeout, `${path}.queueTimeout`, report, DURATION_RULES);
  return {
    enabled: boolean(value, 'enabled', path, report, DEFAULT_ACTIVATOR.enabled),
    port: integer(value, 'port', path, report, { min: 1, max: 65535, fallback: DEFAULT_ACTIVATOR.port }),
    healthPath: typeof healthPath === 'string' ? healthPath : DEFAULT_ACTIVATOR.healthPath,
    queueTimeout: typeof queueTimeout === 'string' ? queueTimeout : DEFAULT_ACTIVATOR.queueTimeout,
  };
}

function readStatus(status: Obj): KybernateWorkloadStatus {
  const read = statusReader(status);
  return compact({
    phase: read.oneOf('phase', WORKLOAD_PHASES),
    activeReplicas: read.count('activeReplicas'),
    suspendedCheckpoints: read.count('suspendedCheckpoints'),
    lastActivityTime: read.text('lastActivityTime'),
    podName: read.text('podName'),
    message: read.text('message'),
    conditions: read.conditions(),
    observedGeneration: read.count('observedGeneration'),
  });
}
