// The pieces both modes add to a pod template: the `asya-sidecar` container, the wiring of the
// `asya-runtime` container (command, socket, script mount, probes) and the three volumes. Standalone
// mode wires the user's own asya-runtime container; binding mode adds a whole one (the adapter).

import {
  queueName,
  deadLetterQueueName,
  RUNTIME_CONFIG_MAP,
  RUNTIME_SCRIPT_KEY,
  RUNTIME_SCRIPT_PATH,
  RUNTIME_VOLUME,
  SIDECAR_CONTAINER,
  SOCKET_DIR,
  SOCKET_VOLUME,
  TMP_VOLUME,
  transportConnectionName,
} from '../../api/asya/constants.ts';
import { DEFAULT_SIDECAR_IMAGE } from '../../api/asya/defaults.ts';
import type { AsyncActor, EnvVar, ResourceRequirements } from '../../api/asya/types.ts';

type Obj = Record<string, unknown>;

/** Where the runtime listens and the sidecar connects. */
export const SOCKET_PATH = `${SOCKET_DIR}/asya-runtime.sock`;
/** Created by the runtime once it listens; the probes test for it. */
export const READY_FILE = `${SOCKET_DIR}/runtime-ready`;
/** rw-r-xr-x: the script is run by the interpreter, but upstream mounts it executable too. */
export const RUNTIME_SCRIPT_MODE = 0o755;

const READY_CHECK = ['sh', '-c', `test -S ${SOCKET_PATH} && test -f ${READY_FILE}`];

/** Upstream's three probes, all testing the socket and the ready file; startup allows 5 minutes (150 × 2 s) for imports. */
export function runtimeProbes(): { startupProbe: Obj; livenessProbe: Obj; readinessProbe: Obj } {
  const probe = (initialDelaySeconds: number, periodSeconds: number, timeoutSeconds: number, failureThreshold: number): Obj => ({
    exec: { command: [...READY_CHECK] },
    initialDelaySeconds,
    periodSeconds,
    timeoutSeconds,
    failureThreshold,
  });
  return { startupProbe: probe(3, 2, 3, 150), livenessProbe: probe(0, 30, 5, 3), readinessProbe: probe(0, 10, 3, 3) };
}

/** The runtime's command: the interpreter running the script from the shared ConfigMap. */
export function runtimeCommand(pythonExecutable: string): string[] {
  return [pythonExecutable, RUNTIME_SCRIPT_PATH];
}

/** The socket and scratch directories (both containers) and the script (runtime only). */
export function runtimeMounts(): Obj[] {
  return [
    { name: SOCKET_VOLUME, mountPath: SOCKET_DIR },
    { name: TMP_VOLUME, mountPath: '/tmp' },
    { name: RUNTIME_VOLUME, mountPath: RUNTIME_SCRIPT_PATH, subPath: RUNTIME_SCRIPT_KEY, readOnly: true },
  ];
}

function sidecarMounts(): Obj[] {
  return runtimeMounts().slice(0, 2);
}

export function injectedVolumes(): Obj[] {
  return [
    { name: SOCKET_VOLUME, emptyDir: {} },
    { name: TMP_VOLUME, emptyDir: {} },
    { name: RUNTIME_VOLUME, configMap: { name: RUNTIME_CONFIG_MAP, defaultMode: RUNTIME_SCRIPT_MODE } },
  ];
}

/**
 * The sidecar: where to find its queue and the runtime. The broker connection comes from the namespace's
 * Secret `asya-<transport>` (envFrom), not from the spec; `spec.sidecar.env` overrides by name.
 */
export function sidecarContainer(actor: AsyncActor): Obj {
  const { sidecar, transport, timeout } = actor.spec;
  const env: EnvVar[] = [
    { name: 'ASYA_ACTOR_NAME', value: actor.metadata.name },
    // From the pod: right offline too, and a binding actor's pods are in its namespace.
    { name: 'ASYA_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    { name: 'ASYA_TRANSPORT', value: transport },
    { name: 'ASYA_QUEUE_NAME', value: queueName(actor) },
    { name: 'ASYA_DLQ_NAME', value: deadLetterQueueName(actor) },
    { name: 'ASYA_RUNTIME_TIMEOUT', value: `${timeout.processing}s` },
    { name: 'ASYA_SOCKET_DIR', value: SOCKET_DIR },
  ];
  return {
    name: SIDECAR_CONTAINER,
    image: sidecar?.image ?? DEFAULT_SIDECAR_IMAGE,
    imagePullPolicy: sidecar?.imagePullPolicy ?? 'IfNotPresent',
    env: withEnv(env, sidecar?.env),
    envFrom: [{ secretRef: { name: transportConnectionName(transport) } }],
    ...resourcesOf(sidecar?.resources),
    volumeMounts: sidecarMounts(),
  };
}

/**
 * `base` with `overrides` applied by name: a same-named entry is replaced where it stands, others are
 * appended. Names stay unique, which server-side apply requires of env (a list keyed by name).
 */
export function withEnv(base: readonly EnvVar[] | readonly Obj[], overrides: readonly EnvVar[] | undefined): Obj[] {
  const out: Obj[] = base.map((e) => ({ ...e }));
  for (const entry of overrides ?? []) {
    const copy = envVar(entry);
    const at = out.findIndex((e) => e.name === entry.name);
    if (at >= 0) out[at] = copy;
    else out.push(copy);
  }
  return out;
}

function envVar(entry: EnvVar): Obj {
  return { name: entry.name, ...(entry.value !== undefined ? { value: entry.value } : {}), ...(entry.valueFrom ? { valueFrom: structuredClone(entry.valueFrom) } : {}) };
}

/** The spec's requests and limits as given; nothing when the spec has none. */
export function resourcesOf(resources: ResourceRequirements | undefined): { resources?: Obj } {
  if (resources === undefined) return {};
  return {
    resources: {
      ...(resources.requests ? { requests: { ...resources.requests } } : {}),
      ...(resources.limits ? { limits: { ...resources.limits } } : {}),
    },
  };
}
