// The one check of an AsyncActor, run by the workflow before it renders or injects anything and by the
// offline CLI. It rejects what the CRD rejects, with the CEL rules' own messages, so a spec that passed
// admission passes here. Beyond the CRD it refuses what only fails later and the API server cannot see:
// a standalone pod template without its `asya-runtime` container or with names we reserve (the
// template is kept as given by the CRD), and a workloadRef into another namespace (CEL cannot read
// metadata.namespace). Those are reported by the workflow as WorkloadReady=False/ValidationError.
// On success it returns a clean copy with the CRD's defaults filled in and unknown fields dropped, the
// way the API server stores the object.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/asya/.

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
  QUANTITY_STRING_PATTERN,
  TARGET_URL_PATTERN,
  URL_PATH_PATTERN,
} from './patterns.ts';
import { PULL_POLICIES, TARGET_PROTOCOLS, TRANSPORTS, WORKLOAD_KINDS, WORKLOAD_REF_KINDS } from './values.ts';
import type {
  AsyncActor,
  AsyncActorMetadata,
  AsyncActorSpec,
  AsyncActorStatus,
  Condition,
  EnvVar,
  Quantity,
  ResourceRequirements,
  RuntimeSpec,
  ScalingSpec,
  SidecarSpec,
  TargetService,
  TimeoutSpec,
  WorkloadRef,
  WorkloadSpec,
} from './types.ts';

export interface AsyncActorIssue {
  /** Path of the offending field, e.g. "spec.runtime.handler". */
  field: string;
  message: string;
}

export type AsyncActorValidation =
  | { valid: true; actor: AsyncActor }
  | { valid: false; errors: AsyncActorIssue[]; message: string };

type Obj = Record<string, unknown>;
/** Records one problem; every check reports through it and returns what it could read. */
type Report = (field: string, message: string) => void;

const ACTOR_NAME = new RegExp(ACTOR_NAME_PATTERN);
const DNS_LABEL = new RegExp(DNS_LABEL_PATTERN);
const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const NO_WHITESPACE = new RegExp(NO_WHITESPACE_PATTERN);
const TARGET_URL = new RegExp(TARGET_URL_PATTERN);
const URL_PATH = new RegExp(URL_PATH_PATTERN);
const QUANTITY = new RegExp(QUANTITY_STRING_PATTERN);

export function validateAsyncActor(obj: unknown): AsyncActorValidation {
  const errors: AsyncActorIssue[] = [];
  const actor = check(obj, (field, message) => errors.push({ field, message }));
  if (errors.length > 0 || !actor) {
    return { valid: false, errors, message: errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
  }
  return { valid: true, actor };
}

/** The API version a workloadRef of this kind must carry (the workloadRefApiVersion rule). */
export function apiVersionFits(kind: string, apiVersion: string): boolean {
  if (kind === 'Deployment' || kind === 'StatefulSet') return apiVersion === 'apps/v1';
  if (kind === 'ModelDeployment') return apiVersion === 'kubeairunway.ai/v1alpha1';
  return apiVersion.startsWith('kaito.sh/');
}

function check(obj: unknown, report: Report): AsyncActor | undefined {
  if (!isObject(obj)) {
    report('object', `must be an ${ASYNC_ACTOR_KIND} object, got ${typeName(obj)}`);
    return undefined;
  }
  if (obj.apiVersion !== ASYA_API_VERSION) report('apiVersion', `must be ${ASYA_API_VERSION}, got ${show(obj.apiVersion)}`);
  if (obj.kind !== ASYNC_ACTOR_KIND) report('kind', `must be ${ASYNC_ACTOR_KIND}, got ${show(obj.kind)}`);
  const metadata = checkMetadata(obj.metadata, report);
  if (obj.spec == null) {
    report('spec', 'required');
    return undefined;
  }
  if (!isObject(obj.spec)) {
    report('spec', `must be an object, got ${typeName(obj.spec)}`);
    return undefined;
  }
  const spec = checkSpec(obj.spec, metadata.namespace, report);
  const status = readStatus(obj.status);
  return { apiVersion: ASYA_API_VERSION, kind: ASYNC_ACTOR_KIND, metadata, spec, ...(status ? { status } : {}) };
}

function checkMetadata(value: unknown, report: Report): AsyncActorMetadata {
  if (value != null && !isObject(value)) {
    report('metadata', `must be an object, got ${typeName(value)}`);
    return { name: '' };
  }
  const meta: Obj = value ?? {};
  const name = meta.name;
  if (name == null || name === '') report('metadata.name', 'required');
  else if (typeof name !== 'string') report('metadata.name', `must be a string, got ${typeName(name)}`);
  else if (!ACTOR_NAME.test(name) || name.length > MAX_ACTOR_NAME_LENGTH) report('metadata.name', AsyncActorMessage.actorName);
  const generation = meta.generation;
  if (generation != null && !isCount(generation, 0)) report('metadata.generation', `must be an integer >= 0, got ${show(generation)}`);
  const finalizers = meta.finalizers;
  const finalizerList = Array.isArray(finalizers) && finalizers.every((f) => typeof f === 'string') ? [...(finalizers as string[])] : undefined;
  if (finalizers != null && !finalizerList) report('metadata.finalizers', 'must be a list of strings');
  return compact({
    name: typeof name === 'string' ? name : '',
    namespace: optionalString(meta, 'namespace', 'metadata', report),
    uid: optionalString(meta, 'uid', 'metadata', report),
    generation: typeof generation === 'number' ? generation : undefined,
    resourceVersion: optionalString(meta, 'resourceVersion', 'metadata', report),
    labels: optionalStringMap(meta, 'labels', 'metadata', report),
    annotations: optionalStringMap(meta, 'annotations', 'metadata', report),
    finalizers: finalizerList,
    deletionTimestamp: optionalString(meta, 'deletionTimestamp', 'metadata', report),
  });
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
    processing: integer(value, 'processing', path, 1, DEFAULT_TIMEOUT.processing, report),
    gracefulShutdown: integer(value, 'gracefulShutdown', path, 0, DEFAULT_TIMEOUT.gracefulShutdown, report),
  };
}

function checkScaling(value: Obj, path: string, report: Report): ScalingSpec {
  const enabled = value.enabled;
  if (enabled != null && typeof enabled !== 'boolean') report(`${path}.enabled`, `must be a boolean, got ${typeName(enabled)}`);
  const scaling: ScalingSpec = {
    enabled: typeof enabled === 'boolean' ? enabled : DEFAULT_SCALING.enabled,
    minReplicas: integer(value, 'minReplicas', path, 0, DEFAULT_SCALING.minReplicas, report),
    maxReplicas: integer(value, 'maxReplicas', path, 1, DEFAULT_SCALING.maxReplicas, report),
    pollingInterval: integer(value, 'pollingInterval', path, 1, DEFAULT_SCALING.pollingInterval, report),
    cooldownPeriod: integer(value, 'cooldownPeriod', path, 0, DEFAULT_SCALING.cooldownPeriod, report),
    queueLength: integer(value, 'queueLength', path, 1, DEFAULT_SCALING.queueLength, report),
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
    replicas: integer(value, 'replicas', path, 0, DEFAULT_WORKLOAD.replicas, report),
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

/** `requests` and `limits` of a container's ResourceRequirements; other keys are dropped, as the API server prunes them. */
function checkResources(value: unknown, path: string, report: Report): ResourceRequirements {
  if (!isObject(value)) {
    report(path, `must be an object with requests and/or limits, got ${typeName(value)}`);
    return {};
  }
  return compact({
    requests: value.requests == null ? undefined : checkQuantities(value.requests, `${path}.requests`, report),
    limits: value.limits == null ? undefined : checkQuantities(value.limits, `${path}.limits`, report),
  });
}

function checkQuantities(value: unknown, path: string, report: Report): Record<string, Quantity> {
  if (!isObject(value)) {
    report(path, `must be a map of resource names to quantities, got ${typeName(value)}`);
    return {};
  }
  const out: [string, Quantity][] = [];
  for (const key of Object.keys(value).sort()) {
    const quantity = value[key];
    if (quantity == null) continue;
    // Numbers must be integers, as the CRD's int-or-string type requires: half a CPU is "500m" or "0.5".
    if (typeof quantity === 'string' ? QUANTITY.test(quantity) : isCount(quantity, 0)) out.push([key, quantity as Quantity]);
    else report(`${path}.${key}`, `must be a non-negative quantity such as "500m", "2Gi" or 4, got ${show(quantity)}`);
  }
  return Object.fromEntries(out);
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

interface StringRules {
  pattern?: RegExp;
  /** How the pattern reads in a message, e.g. "a DNS-1123 label". */
  what?: string;
  minLength?: number;
  maxLength?: number;
}

function checkString(value: unknown, field: string, report: Report, rules: StringRules): void {
  if (typeof value !== 'string') report(field, `must be a string, got ${typeName(value)}`);
  else if (rules.minLength !== undefined && value.length < rules.minLength) report(field, rules.minLength === 1 ? 'must not be empty' : `must have at least ${rules.minLength} characters`);
  else if (rules.maxLength !== undefined && value.length > rules.maxLength) report(field, `must have at most ${rules.maxLength} characters, got ${value.length}`);
  else if (rules.pattern && !rules.pattern.test(value)) report(field, `must be ${rules.what ?? `a string matching ${rules.pattern.source}`}, got ${show(value)}`);
}

/** A required, non-empty string checked against `rules`; undefined (and reported) when absent or wrong. */
function requiredString(parent: Obj, key: string, parentPath: string, report: Report, rules: StringRules): string | undefined {
  const value = parent[key];
  const field = `${parentPath}.${key}`;
  if (value == null || value === '') {
    report(field, 'required');
    return undefined;
  }
  let ok = true;
  checkString(value, field, (f, m) => ((ok = false), report(f, m)), { ...rules, minLength: 1 });
  return ok ? (value as string) : undefined;
}

function checkEnum(value: unknown, allowed: readonly string[], field: string, report: Report): void {
  if (typeof value !== 'string' || !allowed.includes(value)) report(field, `must be one of ${allowed.join(', ')}, got ${show(value)}`);
}

/** An integer >= min, or the default when absent (null counts as absent: the API server drops null fields). */
function integer(parent: Obj, key: string, parentPath: string, min: number, fallback: number, report: Report): number {
  const value = parent[key];
  if (value == null) return fallback;
  if (isCount(value, min)) return value;
  report(`${parentPath}.${key}`, `must be an integer >= ${min}, got ${show(value)}`);
  return fallback;
}

/** The object under `key`; undefined when absent, and reported when not an object. */
function optionalObject(parent: Obj, key: string, parentPath: string, report: Report): Obj | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  if (isObject(value)) return value;
  report(`${parentPath}.${key}`, `must be an object, got ${typeName(value)}`);
  return undefined;
}

function optionalString(parent: Obj, key: string, parentPath: string, report: Report): string | undefined {
  const value = parent[key];
  if (value == null || typeof value === 'string') return value ?? undefined;
  report(`${parentPath}.${key}`, `must be a string, got ${typeName(value)}`);
  return undefined;
}

function optionalStringMap(parent: Obj, key: string, parentPath: string, report: Report): Record<string, string> | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  if (isObject(value) && Object.values(value).every((v) => typeof v === 'string')) return { ...(value as Record<string, string>) };
  report(`${parentPath}.${key}`, 'must be a map of strings to strings');
  return undefined;
}

/** The object without its undefined entries, so an absent optional field stays absent (and out of rendered output). */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

/** A value as it would appear in the manifest, for messages. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
