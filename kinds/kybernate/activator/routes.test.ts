import { describe, expect, it } from 'vitest';
import { Debouncer, podTarget, routeOf, servingTarget, timedOut, workloadFacts } from './routes.ts';

const workload = (status?: object, activator?: object) => ({
  apiVersion: 'kybernate.io/v1alpha1',
  kind: 'KybernateWorkload',
  metadata: { name: 'llm', namespace: 'team-a', uid: 'u-1' },
  spec: { template: { spec: { containers: [{ name: 'model', image: 'my-llm:v1' }] } }, ...(activator ? { activator } : {}) },
  ...(status ? { status } : {}),
});
const readyPod = (extra: object = {}) => ({
  metadata: { name: 'llm', namespace: 'team-a', uid: 'p-1' },
  status: { phase: 'Running', podIP: '10.1.2.3', conditions: [{ type: 'Ready', status: 'True' }] },
  ...extra,
});

describe('routeOf', () => {
  it('reads /<namespace>/<workload>/<path> with its query, the path defaulting to /', () => {
    expect(routeOf('/team-a/llm/v1/chat/completions?stream=true')).toEqual({ kind: 'workload', namespace: 'team-a', name: 'llm', path: '/v1/chat/completions?stream=true' });
    expect(routeOf('/team-a/llm')).toEqual({ kind: 'workload', namespace: 'team-a', name: 'llm', path: '/' });
    expect(routeOf('/team-a/llm?x=1')).toEqual({ kind: 'workload', namespace: 'team-a', name: 'llm', path: '/?x=1' });
    expect(routeOf('/team-a/llm/')).toEqual({ kind: 'workload', namespace: 'team-a', name: 'llm', path: '/' });
  });

  it('knows its own health path and refuses what names no workload', () => {
    expect(routeOf('/healthz')).toEqual({ kind: 'health' });
    expect(routeOf('/')).toMatchObject({ kind: 'bad', message: 'expected /<namespace>/<workload>/<path>, got /' });
    expect(routeOf('/only-one')).toMatchObject({ kind: 'bad' });
    expect(routeOf('/Team/LLM/x')).toEqual({ kind: 'bad', message: 'not a namespace and KybernateWorkload name: /Team/LLM' });
  });
});

describe('workloadFacts', () => {
  it('fills in the activator defaults and parses queueTimeout', () => {
    const known = workloadFacts(workload({ phase: 'Suspended' }) as never);
    expect(known).toEqual({ ok: true, facts: { uid: 'u-1', phase: 'Suspended', activator: { enabled: true, port: 8080, healthPath: '/health', queueTimeout: '30s' }, queueTimeoutMs: 30_000 } });
    const custom = workloadFacts(workload(undefined, { port: 9000, queueTimeout: '1m30s' }) as never);
    expect(custom.ok && custom.facts).toMatchObject({ phase: undefined, queueTimeoutMs: 90_000, activator: { port: 9000 } });
  });

  it('refuses an invalid spec, saying why', () => {
    const bad = workloadFacts({ ...workload(), spec: { template: { spec: { containers: [] } } } } as never);
    expect(bad).toMatchObject({ ok: false, message: expect.stringContaining('its spec is invalid: ') });
  });
});

describe('where a request goes', () => {
  const facts = (phase: string | undefined) => {
    const known = workloadFacts(workload({ phase }, { port: 9000 }) as never);
    if (!known.ok) throw new Error(known.message);
    return known.facts;
  };

  it('to the pod IP at activator.port once the workload is Running and its pod ready', () => {
    expect(servingTarget(facts('Running'), readyPod() as never)).toEqual({ host: '10.1.2.3', port: 9000 });
  });

  it('nowhere yet while the workload is not Running, or its pod not ready, terminating or without an IP', () => {
    for (const phase of ['Suspended', 'Suspending', 'Restoring', 'Pending', undefined]) expect(servingTarget(facts(phase), readyPod() as never), String(phase)).toBeUndefined();
    expect(servingTarget(facts('Running'), undefined)).toBeUndefined();
    expect(podTarget(readyPod({ metadata: { deletionTimestamp: '2025-01-01T00:00:00Z' } }) as never, 1)).toBeUndefined();
    expect(podTarget(readyPod({ status: { phase: 'Running', podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'False' }] } }) as never, 1)).toBeUndefined();
    expect(podTarget(readyPod({ status: { phase: 'Pending', podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'True' }] } }) as never, 1)).toBeUndefined();
    expect(podTarget(readyPod({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }) as never, 1)).toBeUndefined();
  });

  it('answers a held request that timed out with 503, naming the workload, its phase and the timeout', () => {
    const a = timedOut('team-a', 'llm', facts('Restoring'), 'Restoring');
    expect(a.status).toBe(503);
    expect(a.headers).toEqual({ 'retry-after': '30' });
    expect(a.body).toEqual({
      error: 'KybernateWorkload team-a/llm did not become Running within 30s (activator.queueTimeout); it is Restoring. Try again later.',
      workload: 'team-a/llm',
      phase: 'Restoring',
      queueTimeout: '30s',
    });
  });
});

describe('Debouncer', () => {
  it('lets one signal per key through per interval', () => {
    const d = new Debouncer(1_000);
    expect(d.due('a', 0)).toBe(true);
    expect(d.due('a', 999)).toBe(false);
    expect(d.due('b', 999)).toBe(true);
    expect(d.due('a', 1_000)).toBe(true);
    expect(d.due('a', 1_500)).toBe(false);
  });

  it('stays bounded, forgetting the keys signalled longest ago', () => {
    const d = new Debouncer(1_000, 2);
    expect(d.due('a', 0)).toBe(true);
    expect(d.due('b', 1)).toBe(true);
    expect(d.due('c', 2)).toBe(true);
    // 'a' was dropped: it may signal again at once; 'c' may not.
    expect(d.due('a', 3)).toBe(true);
    expect(d.due('c', 4)).toBe(false);
  });
});
