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
// the shared field checks of api/common/checks.ts.

import {
  boolean,
  checkEnum,
  checkHead,
  checkResources,
  checkString,
  collect,
  compact,
  integer,
  isCount,
  isObject,
  optionalObject,
  optionalString,
  requiredString,
  show,
  typeName,
  type FieldIssue,
  type Obj,
  type Report,
} from '../common/checks.ts';
import {
  ASYA_API_VERSION,
  ASYNC_ACTOR_KIND,
  INJECTED_VOLUMES,
  RUNTIME_CONTAINER,
  SIDECAR_CONTAINER,
  type Mode,
} from './constants.ts';
import { DEFAULT_RUNTIME, DEFAULT_SCALING, DEFAULT_TARGET_PROTOCOL, DEFAULT_TIMEOUT, DEFAULT_WORKLOAD } from './defaults.ts';
import { AsyncActorMessage } from './messages.ts';
import {
  ACTOR_NAME_PATTERN,
  DNS_LABEL_PATTERN,
  MAX_ACTOR_NAME_LENGTH,
  MAX_DNS_LABEL_LENGTH,
  MAX_OBJECT_NAME_LENGTH,
  MAX_SHORT_STRING,
  MAX_URL_LENGTH,
  NO_WHITESPACE_PATTERN,
  OBJECT_NAME_PATTERN,
  TARGET_URL_PATTERN,
  URL_PATH_PATTERN,
} from './patterns.ts';
import { PULL_POLICIES, TARGET_PROTOCOLS, TRANSPORTS, WORKLOAD_KINDS, WORKLOAD_REF_KINDS } from './values.ts';
import type {
  AsyncActor,
  AsyncActorSpec,
  AsyncActorStatus,
  Condition,
  EnvVar,
  RuntimeSpec,
  ScalingSpec,
  SidecarSpec,
  TargetService,
  TimeoutSpec,
  WorkloadRef,
  WorkloadSpec,
} from './types.ts';

export type AsyncActorIssue = FieldIssue;

export type AsyncActorValidation =
  | { valid: true; actor: AsyncActor }
  | { valid: false; errors: AsyncActorIssue[]; message: string };

const ACTOR_NAME = new RegExp(ACTOR_NAME_PATTERN);
const DNS_LABEL = new RegExp(DNS_LABEL_PATTERN);
const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const NO_WHITESPACE = new RegExp(NO_WHITESPACE_PATTERN);
const TARGET_URL = new RegExp(TARGET_URL_PATTERN);
const URL_PATH = new RegExp(URL_PATH_PATTERN);

const HEAD = {
  apiVersion: ASYA_API_VERSION,
  kind: ASYNC_ACTOR_KIND,
  nameProblem: (name: string) => (ACTOR_NAME.test(name) && name.length <= MAX_ACTOR_NAME_LENGTH ? undefined : AsyncActorMessage.actorName),
  finalizers: true,
};

export function validateAsyncActor(obj: unknown): AsyncActorValidation {
  const result = collect((report) => check(obj, report));
  return result.valid ? { valid: true, actor: result.value } : result;
}

/** The API version a workloadRef of this kind must carry (the workloadRefApiVersion rule). */
export function apiVersionFits(kind: string, apiVersion: string): boolean {
  if (kind === 'Deployment' || kind === 'StatefulSet') return apiVersion === 'apps/v1';
  if (kind === 'ModelDeployment') return apiVersion === 'kubeairunway.ai/v1alpha1';
  return apiVersion.startsWith('kaito.sh/');
}

/** Every check reports through `report` and returns what it could read; the result is used only when nothing was reported. */
function check(obj: unknown, report: Report): AsyncActor | undefined {
  const head = checkHead(obj, HEAD, report);
  if (!head) return undefined;
  const spec = checkSpec(head.spec, head.metadata.namespace, report);
  const status = readStatus(head.status);
  return { apiVersion: ASYA_API_VERSION, kind: ASYNC_ACTOR_KIND, metadata: head.metadata, spec, ...(status ? { status } : {}) };
}

function checkSpec(spec: Obj, namespace: string | undefined, report: Report): AsyncActorSpec {
  const transport = spec.transport;
  if (transport == null || transport === '') report('spec.transport', 'required');
  else checkEnum(transport, TRANSPORTS, 'spec.transport', report);

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
    workloadRef: workloadRef ? checkWorkloadRef(workloadRef, 'spec.workloadRef', namespace, report) : undefined,
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
  const image = value.image;
  if (image != null) checkString(image, `${path}.image`, report, { pattern: NO_WHITESPACE, what: 'an image reference without whitespace', minLength: 1 });
  const pullPolicy = value.imagePullPolicy;
  if (pullPolicy != null) checkEnum(pullPolicy, PULL_POLICIES, `${path}.imagePullPolicy`, report);
  return compact({
    image: typeof image === 'string' ? image : undefined,
    imagePullPolicy: pullPolicy as SidecarSpec['imagePullPolicy'],
    resources: value.resources == null ? undefined : checkResources(value.resources, `${path}.resources`, report),
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
  if (scaling.minReplicas > scaling.maxReplicas) report(path, AsyncActorMessage.scalingBounds);
  return scaling;
}

function checkWorkload(value: Obj, path: string, report: Report): WorkloadSpec {
  const kind = value.kind ?? DEFAULT_WORKLOAD.kind;
  checkEnum(kind, WORKLOAD_KINDS, `${path}.kind`, report);
  const python = value.pythonExecutable ?? DEFAULT_WORKLOAD.pythonExecutable;
  checkString(python, `${path}.pythonExecutable`, report, { pattern: NO_WHITESPACE, what: 'a command without whitespace', minLength: 1 });
  const template = value.template;
  if (template == null) report(`${path}.template`, 'required');
  else if (!isObject(template)) report(`${path}.template`, `must be an object, got ${typeName(template)}`);
  else checkPodTemplate(template, `${path}.template`, report);
  return {
    kind: kind as WorkloadSpec['kind'],
    replicas: integer(value, 'replicas', path, report, { min: 0, fallback: DEFAULT_WORKLOAD.replicas }),
    pythonExecutable: python as string,
    template: isObject(template) ? template : {},
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
  const kind = value.kind;
  if (kind == null || kind === '') report(`${path}.kind`, 'required');
  else checkEnum(kind, WORKLOAD_REF_KINDS, `${path}.kind`, report);
  const name = requiredString(value, 'name', path, report, { pattern: OBJECT_NAME, what: 'a DNS-1123 subdomain', maxLength: MAX_OBJECT_NAME_LENGTH });
  const namespace = value.namespace;
  if (namespace != null) {
    checkString(namespace, `${path}.namespace`, report, { pattern: DNS_LABEL, what: 'a DNS-1123 label', maxLength: MAX_DNS_LABEL_LENGTH, minLength: 1 });
    // The ScaledObject must sit next to its target and our label names the actor by name only.
    if (typeof namespace === 'string' && actorNamespace && namespace !== actorNamespace) {
      report(`${path}.namespace`, `must be the AsyncActor's own namespace (${actorNamespace}), got ${show(namespace)}: an actor binds only to workloads next to it`);
    }
  }
  if (apiVersion && typeof kind === 'string' && (WORKLOAD_REF_KINDS as readonly string[]).includes(kind) && !apiVersionFits(kind, apiVersion)) {
    report(path, AsyncActorMessage.workloadRefApiVersion);
  }
  return compact({
    apiVersion: apiVersion ?? '',
    kind: kind as WorkloadRef['kind'],
    name: name ?? '',
    namespace: typeof namespace === 'string' ? namespace : undefined,
  });
}

function checkRuntime(value: Obj, path: string, report: Report): RuntimeSpec {
  const targetURL = value.targetURL;
  if (targetURL != null) checkString(targetURL, `${path}.targetURL`, report, { pattern: TARGET_URL, what: 'an http:// or https:// URL', maxLength: MAX_URL_LENGTH });
  const service = optionalObject(value, 'targetService', path, report);
  const image = value.image ?? DEFAULT_RUNTIME.image;
  checkString(image, `${path}.image`, report, { pattern: NO_WHITESPACE, what: 'an image reference without whitespace', minLength: 1 });
  const handler = requiredString(value, 'handler', path, report, { pattern: NO_WHITESPACE, what: 'a handler such as "package.module.function"' });
  const python = value.pythonExecutable ?? DEFAULT_RUNTIME.pythonExecutable;
  checkString(python, `${path}.pythonExecutable`, report, { pattern: NO_WHITESPACE, what: 'a command without whitespace', minLength: 1 });
  return compact({
    targetURL: typeof targetURL === 'string' ? targetURL : undefined,
    targetService: service ? checkTargetService(service, `${path}.targetService`, report) : undefined,
    image: image as string,
    handler: handler ?? '',
    env: value.env == null ? undefined : checkEnv(value.env, `${path}.env`, report),
    resources: value.resources == null ? undefined : checkResources(value.resources, `${path}.resources`, report),
    pythonExecutable: python as string,
  });
}

function checkTargetService(value: Obj, path: string, report: Report): TargetService {
  const name = requiredString(value, 'name', path, report, { pattern: DNS_LABEL, what: 'a Service name (DNS-1123 label)', maxLength: MAX_DNS_LABEL_LENGTH });
  const port = value.port;
  if (port == null) report(`${path}.port`, 'required');
  else if (!isCount(port, 1) || port > 65535) report(`${path}.port`, `must be an integer from 1 to 65535, got ${show(port)}`);
  const namespace = value.namespace;
  if (namespace != null) checkString(namespace, `${path}.namespace`, report, { pattern: DNS_LABEL, what: 'a DNS-1123 label', maxLength: MAX_DNS_LABEL_LENGTH, minLength: 1 });
  const protocol = value.protocol ?? DEFAULT_TARGET_PROTOCOL;
  checkEnum(protocol, TARGET_PROTOCOLS, `${path}.protocol`, report);
  const urlPath = value.path;
  if (urlPath != null) checkString(urlPath, `${path}.path`, report, { pattern: URL_PATH, what: "a path starting with '/', without whitespace", maxLength: MAX_URL_LENGTH });
  return compact({
    name: name ?? '',
    port: port as number,
    namespace: typeof namespace === 'string' ? namespace : undefined,
    protocol: protocol as TargetService['protocol'],
    path: typeof urlPath === 'string' ? urlPath : undefined,
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
    const text = optionalString(entry, 'value', at, report);
    const from = entry.valueFrom;
    if (from != null && !isObject(from)) report(`${at}.valueFrom`, `must be an object, got ${typeName(from)}`);
    return [compact({ name: name ?? '', value: text, valueFrom: isObject(from) ? from : undefined })];
  });
}

/** The stored status, keeping only well-typed fields: a malformed status never makes the actor invalid (the controller rewrites it). */
function readStatus(value: unknown): AsyncActorStatus | undefined {
  if (!isObject(value)) return undefined;
  const count = (key: string): number | undefined => {
    const field = value[key];
    return isCount(field, 0) ? field : undefined;
  };
  const text = (key: string): string | undefined => {
    const field = value[key];
    return typeof field === 'string' ? field : undefined;
  };
  const mode: Mode | undefined = value.mode === 'Standalone' || value.mode === 'Binding' ? value.mode : undefined;
  const conditions = Array.isArray(value.conditions) ? value.conditions.filter(isCondition).map((c) => ({ ...c })) : undefined;
  return compact({
    mode,
    resolvedTarget: text('resolvedTarget'),
    runtimeInjected: typeof value.runtimeInjected === 'boolean' ? value.runtimeInjected : undefined,
    conflictCount: count('conflictCount'),
    lastConflictTime: text('lastConflictTime'),
    replicas: count('replicas'),
    readyReplicas: count('readyReplicas'),
    desiredReplicas: count('desiredReplicas'),
    totalReplicas: count('totalReplicas'),
    pendingReplicas: count('pendingReplicas'),
    failingPods: count('failingPods'),
    status: text('status'),
    conditions,
    observedGeneration: count('observedGeneration'),
  });
}

function isCondition(value: unknown): value is Condition {
  return isObject(value) && typeof value.type === 'string' && (value.status === 'True' || value.status === 'False' || value.status === 'Unknown');
}
