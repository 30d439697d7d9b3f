// The one check of an AsyncActor, run by the workflow before it renders or injects anything and by the
// offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages, so a spec that passed
// admission passes here. Beyond the CRD it refuses what only fails later and the API server cannot see:
// a standalone pod template without its `asya-runtime` container or with names we reserve (the
// template is kept as given by the CRD), and a workloadRef into another namespace (CEL cannot read
// metadata.namespace). Those are reported by the workflow as WorkloadReady=False/ValidationError.
// On success it returns a clean copy with the CRD's defaults filled in and unknown fields dropped, the
// way the API server stores the object.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/asya/ and
// the shared checks of api/common/ (the validator frame, field checks, status readers).

import { boolean, compact, isObject, optionalEnum, optionalObject, optionalResources, optionalString, requiredEnum, requiredObject, requiredString, show, typeName, type FieldIssue, type Obj, type ObjectMetadata, type Report } from '../common/checks.ts';
import { defaultedEnum, defaultedString } from '../common/defaulted.ts';
import { checkReplicaRange, integer, requiredInteger } from '../common/integers.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { conditions, count, flag, oneOf, statusReader, text } from '../common/status-reader.ts';
import { COMMAND_RULES, dnsLabelRules, IMAGE_RULES, objectNameRules, URL_PATH_RULES } from '../common/string-rules.ts';
import { ASYA_API_VERSION, ASYNC_ACTOR_KIND, INJECTED_VOLUMES, RUNTIME_CONTAINER, SIDECAR_CONTAINER } from './constants.ts';
import { DEFAULT_RUNTIME, DEFAULT_SCALING, DEFAULT_TARGET_PROTOCOL, DEFAULT_TIMEOUT, DEFAULT_WORKLOAD } from './defaults.ts';
import { AsyncActorMessage } from './messages.ts';
import { ACTOR_NAME_PATTERN, MAX_ACTOR_NAME_LENGTH, MAX_SHORT_STRING, MAX_URL_LENGTH, NO_WHITESPACE_PATTERN, TARGET_URL_PATTERN } from './patterns.ts';
import { MODES, PULL_POLICIES, TARGET_PROTOCOLS, TRANSPORTS, WORKLOAD_KINDS, WORKLOAD_REF_KINDS } from './values.ts';
import type { AsyncActor, AsyncActorSpec, AsyncActorStatus, EnvVar, RuntimeSpec, ScalingSpec, SidecarSpec, TargetService, TimeoutSpec, WorkloadRef, WorkloadSpec } from './types.ts';

export type AsyncActorIssue = FieldIssue;
export type AsyncActorValidation = Validation<'actor', AsyncActor>;

const ACTOR_NAME = new RegExp(ACTOR_NAME_PATTERN);
const NO_WHITESPACE = new RegExp(NO_WHITESPACE_PATTERN);
const TARGET_URL = new RegExp(TARGET_URL_PATTERN);

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
  spec: (spec, report, metadata) => checkSpec(spec, metadata, report),
  status: readStatus,
});

/** The API version a workloadRef of this kind must carry (the workloadRefApiVersion rule). */
export function apiVersionFits(kind: string, apiVersion: string): boolean {
  if (kind === 'Deployment' || kind === 'StatefulSet') return apiVersion === 'apps/v1';
  if (kind === 'ModelDeployment') return apiVersion === 'kubeairunway.ai/v1alpha1';
  return apiVersion.startsWith('kaito.sh/');
}

function checkSpec(spec: Obj, metadata: ObjectMetadata, report: Report): AsyncActorSpec {
  const transport = requiredEnum(spec, 'transport', 'spec', report, TRANSPORTS);

  const sidecar = optionalObject(spec, 'sidecar', 'spec', report);
  const timeout = optionalObject(spec, 'timeout', 'spec', report);
  const scaling = optionalObject(spec, 'scaling', 'spec', report);
  const workload = optionalObject(spec, 'workload', 'spec', report);
  const workloadRef = optionalObject(spec, 'workloadRef', 'spec', report);
  const runtime = optionalObject(spec, 'runtime', 'spec', report);

  const checked: AsyncActorSpec = compact({
    transport: transport as AsyncActorSpec['transport'],
    sidecar: sidecar ? checkSidecar(sidecar, 'spec.sidecar', report) : undefined,
    timeout: checkTimeout(timeout ?? {}, 'spec.timeout', report),
    scaling: checkScaling(scaling ?? {}, 'spec.scaling', report),
    workload: workload ? checkWorkload(workload, 'spec.workload', report) : undefined,
    workloadRef: workloadRef ? checkWorkloadRef(workloadRef, 'spec.workloadRef', metadata.namespace, report) : undefined,
    runtime: runtime ? checkRuntime(runtime, 'spec.runtime', report) : undefined,
  });

  // The CEL rules on spec (api/crd/async-actor-schema.ts), on what is present (a malformed part counts as present).
  const has = (key: string) => spec[key] != null;
  if (has('workload') === has('workloadRef')) report('spec', AsyncActorMessage.exactlyOneWorkload);
  if (has('workloadRef') && !has('runtime')) report('spec.runtime', AsyncActorMessage.runtimeRequired);
  if (has('workload') && has('runtime')) report('spec.runtime', AsyncActorMessage.runtimeForbidden);
  if (runtime) {
    const targets = [runtime.targetURL, runtime.targetService].filter((t) => t != null).length;
    const modelDeployment = workloadRef?.kind === 'ModelDeployment';
    if (targets > 1) report('spec.runtime', AsyncActorMessage.oneTarget);
    if (targets === 0 && !modelDeployment) report('spec.runtime', AsyncActorMessage.targetRequired);
  }
  return checked;
}

function checkSidecar(value: Obj, path: string, report: Report): SidecarSpec {
  return compact({
    image: optionalString(value, 'image', path, report, IMAGE_RULES),
    imagePullPolicy: optionalEnum(value, 'imagePullPolicy', path, report, PULL_POLICIES),
    resources: optionalResources(value, path, report),
    env: value.env == null ? undefined : checkEnv(value.env, `${path}.env`, report),
  });
}

function checkTimeout(value: Obj, path: string, report: Report): TimeoutSpec {
  return {
    processing: integer(value, 'processing', path, report, { min: 1, fallback: DEFAULT_TIMEOUT.processing }),
    gracefulShutdown: integer(value, 'gracefulShutdown', path, report, { min: 0, fallback: DEFAULT_TIMEOUT.gracefulShutdown }),
  };
}

function checkScaling(value: Obj, path: string, report: Report): ScalingSpec {
  const scaling: ScalingSpec = {
    enabled: boolean(value, 'enabled', path, report, DEFAULT_SCALING.enabled),
    minReplicas: integer(value, 'minReplicas', path, report, { min: 0, fallback: DEFAULT_SCALING.minReplicas }),
    maxReplicas: integer(value, 'maxReplicas', path, report, { min: 1, fallback: DEFAULT_SCALING.maxReplicas }),
    pollingInterval: integer(value, 'pollingInterval', path, report, { min: 1, fallback: DEFAULT_SCALING.pollingInterval }),
    cooldownPeriod: integer(value, 'cooldownPeriod', path, report, { min: 0, fallback: DEFAULT_SCALING.cooldownPeriod }),
    queueLength: integer(value, 'queueLength', path, report, { min: 1, fallback: DEFAULT_SCALING.queueLength }),
  };
  return checkReplicaRange(scaling, path, report, AsyncActorMessage.scalingBounds);
}

function checkWorkload(value: Obj, path: string, report: Report): WorkloadSpec {
  const kind = defaultedEnum(value, 'kind', path, report, WORKLOAD_KINDS, DEFAULT_WORKLOAD.kind);
  const pythonExecutable = defaultedString(value, 'pythonExecutable', path, report, COMMAND_RULES, DEFAULT_WORKLOAD.pythonExecutable);
  const template = requiredObject(value, 'template', path, report);
  if (template) checkPodTemplate(template, `${path}.template`, report);
  return {
    kind,
    replicas: integer(value, 'replicas', path, report, { min: 0, fallback: DEFAULT_WORKLOAD.replicas }),
    pythonExecutable,
    template: template ?? {},
  };
}

/**
 * What the controller needs of a standalone pod template and the CRD cannot check (it keeps the template
 * as given): exactly one `asya-runtime` container, whose command the controller sets; no container named
 * `asya-sidecar`, which the controller adds; none of the volume names it adds.
 */
function checkPodTemplate(template: Obj, path: string, report: Report): void {
  const spec = template.spec;
  if (!isObject(spec)) {
    report(`${path}.spec`, `required: a pod spec whose containers include one named '${RUNTIME_CONTAINER}'`);
    return;
  }
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    report(`${path}.spec.containers`, `required: a list of containers including one named '${RUNTIME_CONTAINER}'`);
    return;
  }
  let runtimes = 0;
  containers.forEach((container, i) => {
    const at = `${path}.spec.containers[${i}]`;
    if (!isObject(container) || typeof container.name !== 'string' || container.name === '') {
      report(`${at}.name`, 'required: every container has a name');
      return;
    }
    if (container.name === SIDECAR_CONTAINER) report(`${at}.name`, `'${SIDECAR_CONTAINER}' is reserved for the sidecar the controller adds`);
    if (container.name === RUNTIME_CONTAINER) {
      runtimes += 1;
      if (container.command != null) report(`${at}.command`, `must not be set: the controller runs '${RUNTIME_CONTAINER}' as <pythonExecutable> /opt/asya/asya_runtime.py`);
    }
  });
  if (runtimes !== 1) report(`${path}.spec.containers`, `must hold exactly one container named '${RUNTIME_CONTAINER}' (the handler's), found ${runtimes}`);
  const initContainers = Array.isArray(spec.initContainers) ? spec.initContainers : [];
  initContainers.forEach((container, i) => {
    const name = isObject(container) ? container.name : undefined;
    if (name === SIDECAR_CONTAINER || name === RUNTIME_CONTAINER) report(`${path}.spec.initContainers[${i}].name`, `'${String(name)}' is reserved for the containers the controller manages`);
  });
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  volumes.forEach((volume, i) => {
    const name = isObject(volume) ? volume.name : undefined;
    if (typeof name === 'string' && INJECTED_VOLUMES.includes(name)) {
      report(`${path}.spec.volumes[${i}].name`, `'${name}' is reserved for the volumes the controller adds (${INJECTED_VOLUMES.join(', ')})`);
    }
  });
}

function checkWorkloadRef(value: Obj, path: string, actorNamespace: string | undefined, report: Report): WorkloadRef {
  const apiVersion = requiredString(value, 'apiVersion', path, report, { maxLength: MAX_SHORT_STRING });
  const kind = requiredEnum(value, 'kind', path, report, WORKLOAD_REF_KINDS);
  const name = requiredString(value, 'name', path, report, objectNameRules());
  const namespace = optionalString(value, 'namespace', path, report, dnsLabelRules());
  // The ScaledObject must sit next to its target and our label names the actor by name only.
  if (typeof value.namespace === 'string' && actorNamespace && value.namespace !== actorNamespace) {
    report(`${path}.namespace`, `must be the AsyncActor's own namespace (${actorNamespace}), got ${show(value.namespace)}: an actor binds only to workloads next to it`);
  }
  if (apiVersion && kind && !apiVersionFits(kind, apiVersion)) report(path, AsyncActorMessage.workloadRefApiVersion);
  return compact({ apiVersion: apiVersion ?? '', kind: kind as WorkloadRef['kind'], name: name ?? '', namespace });
}

function checkRuntime(value: Obj, path: string, report: Report): RuntimeSpec {
  const targetURL = optionalString(value, 'targetURL', path, report, { pattern: TARGET_URL, what: 'an http:// or https:// URL', maxLength: MAX_URL_LENGTH });
  const service = optionalObject(value, 'targetService', path, report);
  const image = defaultedString(value, 'image', path, report, IMAGE_RULES, DEFAULT_RUNTIME.image);
  const handler = requiredString(value, 'handler', path, report, { pattern: NO_WHITESPACE, what: 'a handler such as "package.module.function"' });
  const pythonExecutable = defaultedString(value, 'pythonExecutable', path, report, COMMAND_RULES, DEFAULT_RUNTIME.pythonExecutable);
  return compact({
    targetURL,
    targetService: service ? checkTargetService(service, `${path}.targetService`, report) : undefined,
    image,
    handler: handler ?? '',
    env: value.env == null ? undefined : checkEnv(value.env, `${path}.env`, report),
    resources: optionalResources(value, path, report),
    pythonExecutable,
  });
}

function checkTargetService(value: Obj, path: string, report: Report): TargetService {
  return compact({
    name: requiredString(value, 'name', path, report, dnsLabelRules('a Service name (DNS-1123 label)')) ?? '',
    port: requiredInteger(value, 'port', path, report, { min: 1, max: 65535 }) as number,
    namespace: optionalString(value, 'namespace', path, report, dnsLabelRules()),
    protocol: defaultedEnum(value, 'protocol', path, report, TARGET_PROTOCOLS, DEFAULT_TARGET_PROTOCOL),
    path: optionalString(value, 'path', path, report, URL_PATH_RULES),
  });
}

/** A container's env: named entries (names unique, as the CRD's list-map requires), `value` or `valueFrom`. */
function checkEnv(value: unknown, path: string, report: Report): EnvVar[] {
  if (!Array.isArray(value)) {
    report(path, `must be a list of {name, value} entries, got ${typeName(value)}`);
    return [];
  }
  const seen = new Set<string>();
  return value.flatMap((entry, i): EnvVar[] => {
    const at = `${path}[${i}]`;
    if (!isObject(entry)) {
      report(at, `must be an object with a name, got ${typeName(entry)}`);
      return [];
    }
    const name = requiredString(entry, 'name', at, report, {});
    if (name !== undefined) {
      if (seen.has(name)) report(`${at}.name`, `duplicate name ${show(name)}`);
      seen.add(name);
    }
    return [compact({ name: name ?? '', value: optionalString(entry, 'value', at, report), valueFrom: optionalObject(entry, 'valueFrom', at, report) })];
  });
}
