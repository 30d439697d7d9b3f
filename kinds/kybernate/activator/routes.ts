// The activator's decisions, pure: which workload a request is for, whether it may be proxied now or
// must wait for the workload to wake, how often its workflow hears of requests, and what a request
// that cannot be served is told. The server (server.ts) does the I/O around them.

import { validateKybernateWorkload } from '../../../api/kybernate/validate.ts';
import { parseDuration } from '../../../api/kybernate/duration.ts';
import type { ActivatorSpec } from '../../../api/kybernate/types.ts';
import type { AnyObject } from '../../../kube/custom-objects.ts';

/** The activator's own health, outside every workload's path. */
export const ACTIVATOR_HEALTH_PATH = '/healthz';

export type ActivatorRoute =
  | { kind: 'health' }
  | { kind: 'workload'; namespace: string; name: string; /** The rest of the path with its query, as the pod gets it: `/v1/models?x=1`. */ path: string }
  | { kind: 'bad'; message: string };

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** `/<namespace>/<name>/<path>` (the path may be empty: `/`); `/healthz` is the activator's own. */
export function routeOf(url: string): ActivatorRoute {
  const queryAt = url.indexOf('?');
  const pathname = queryAt >= 0 ? url.slice(0, queryAt) : url;
  const query = queryAt >= 0 ? url.slice(queryAt) : '';
  if (pathname === ACTIVATOR_HEALTH_PATH) return { kind: 'health' };
  const match = /^\/([^/]+)\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match) return { kind: 'bad', message: `expected /<namespace>/<workload>/<path>, got ${pathname}` };
  // Both groups always match; the defaults only type them (an empty name is refused below anyway).
  const [, namespace = '', name = '', rest] = match;
  if (!NAME.test(namespace) || !NAME.test(name)) return { kind: 'bad', message: `not a namespace and KybernateWorkload name: /${namespace}/${name}` };
  return { kind: 'workload', namespace, name, path: `${rest ?? '/'}${query}` };
}

/** What of a workload the activator needs: its workflow's id parts, its activator settings, its phase. */
export interface WorkloadFacts {
  uid: string;
  phase: string | undefined;
  activator: ActivatorSpec;
  queueTimeoutMs: number;
}

/** The workload's facts, or why requests for it are not served (an invalid spec is the workflow's to report). */
export function workloadFacts(obj: AnyObject): { ok: true; facts: WorkloadFacts } | { ok: false; message: string } {
  const checked = validateKybernateWorkload(obj);
  if (!checked.valid) return { ok: false, message: `its spec is invalid: ${checked.message}` };
  const { activator } = checked.workload.spec;
  const queueTimeoutMs = parseDuration(activator.queueTimeout);
  if (queueTimeoutMs === undefined) return { ok: false, message: `activator.queueTimeout ${activator.queueTimeout} is not a duration` };
  return { ok: true, facts: { uid: obj.metadata?.uid ?? '', phase: (obj.status as { phase?: string } | undefined)?.phase, activator, queueTimeoutMs } };
}

/** Where a ready workload's pod serves: its IP and the activator port; undefined while it cannot serve. */
export function podTarget(pod: AnyObject | undefined, port: number): { host: string; port: number } | undefined {
  if (!pod || pod.metadata?.deletionTimestamp) return undefined;
  const status = (pod.status ?? {}) as { phase?: string; podIP?: string; conditions?: { type: string; status: string }[] };
  const ready = status.phase === 'Running' && !!status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  return ready && status.podIP ? { host: status.podIP, port } : undefined;
}

/** A workload serves when its status says Running and its pod is ready with an IP. */
export function servingTarget(facts: WorkloadFacts, pod: AnyObject | undefined): { host: string; port: number } | undefined {
  return facts.phase === 'Running' ? podTarget(pod, facts.activator.port) : undefined;
}

/**
 * At most one signal per key and interval: requests arrive by the thousand, the workflow needs to hear
 * of them once a second at most (its history grows by one event per signal). Bounded: keys not seen
 * for a while are dropped.
 */
export class Debouncer {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly intervalMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Whether a signal for `key` is due at `now` (and, if so, it counts as sent). */
  due(key: string, now: number): boolean {
    const previous = this.last.get(key);
    if (previous !== undefined && now - previous < this.intervalMs) return false;
    this.last.delete(key);
    this.last.set(key, now);
    // The oldest first (insertion order is send order): a key dropped early only costs one extra signal.
    while (this.last.size > this.maxKeys) this.last.delete(this.last.keys().next().value!);
    return true;
  }
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const workloadName = (namespace: string, name: string) => `${namespace}/${name}`;

export function notFound(namespace: string, name: string): Answer {
  return { status: 404, body: { error: `KybernateWorkload ${workloadName(namespace, name)} does not exist`, workload: workloadName(namespace, name) } };
}

export function notServed(namespace: string, name: string, why: string): Answer {
  return { status: 404, body: { error: `KybernateWorkload ${workloadName(namespace, name)} is not served by the activator: ${why}`, workload: workloadName(namespace, name) } };
}

export function timedOut(namespace: string, name: string, facts: WorkloadFacts, phase: string | undefined): Answer {
  return {
    status: 503,
    headers: { 'retry-after': String(Math.max(1, Math.ceil(facts.queueTimeoutMs / 1_000))) },
    body: {
      error: `KybernateWorkload ${workloadName(namespace, name)} did not become Running within ${facts.activator.queueTimeout} (activator.queueTimeout); it is ${phase ?? 'not reporting a phase yet'}. Try again later.`,
      workload: workloadName(namespace, name),
      phase: phase ?? null,
      queueTimeout: facts.activator.queueTimeout,
    },
  };
}

export function unreachable(namespace: string, name: string, target: { host: string; port: number }, reason: string): Answer {
  return {
    status: 502,
    body: { error: `KybernateWorkload ${workloadName(namespace, name)}: its pod at ${target.host}:${target.port} could not be reached: ${reason}`, workload: workloadName(namespace, name) },
  };
}

/** The workload's health path, answered by the activator itself: it can always take requests (it wakes the workload). */
export function health(namespace: string, name: string, phase: string | undefined): Answer {
  return { status: 200, body: { workload: workloadName(namespace, name), phase: phase ?? null, activator: 'ok' } };
}
