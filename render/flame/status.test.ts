import { describe, expect, it } from 'vitest';
import { seedCluster, withExecutors } from '../../api/flame/testing.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { flameStatus, HEALTHY_MESSAGE, NO_EXECUTORS_MESSAGE } from './status.ts';

const cluster = seedCluster({ generation: 7 });

function pod(name: string, status: Record<string, unknown> = {}, extra: Partial<NonNullable<AnyObject['metadata']>> = {}): AnyObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { 'flame.xflops.io/cluster': 'my-flame' }, ...extra }, status };
}
const READY = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
const NOT_READY = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] };
const sm = (status: Record<string, unknown> = READY) => pod('my-flame-session-manager', status);
const ex = (i: number, status: Record<string, unknown> = READY) => pod(`my-flame-executor-manager-${i}`, status);

describe('flameStatus', () => {
  it('everything ready: Running, all counts, endpoint, both generations', () => {
    expect(flameStatus(cluster, [sm(), ex(0), ex(1), ex(2)], 3)).toEqual({
      sessionManager: { ready: 1, endpoint: 'http://my-flame-session-manager:8080' },
      executorManager: { replicas: 3, ready: 3 },
      state: 'Running',
      configGeneration: 3,
      observedGeneration: 7,
      message: HEALTHY_MESSAGE,
    });
    expect(HEALTHY_MESSAGE).toBe('All components healthy');
  });

  it('Running as soon as the session manager and one executor are ready', () => {
    const status = flameStatus(cluster, [sm(), ex(0), ex(1, NOT_READY)], 1);
    expect(status).toMatchObject({ state: 'Running', executorManager: { replicas: 3, ready: 1 }, message: '1/3 executors ready' });
  });

  it('ready means phase Running and condition Ready=True', () => {
    const cases = [
      { phase: 'Running' },
      { phase: 'Pending', conditions: [{ type: 'Ready', status: 'True' }] },
      { phase: 'Running', conditions: [{ type: 'ContainersReady', status: 'True' }] },
      NOT_READY,
    ];
    for (const s of cases) expect(flameStatus(cluster, [sm(s)], 1).sessionManager.ready, JSON.stringify(s)).toBe(0);
    expect(flameStatus(cluster, [sm(READY)], 1).sessionManager.ready).toBe(1);
  });

  describe('Pending, with a message saying what is missing', () => {
    it('no pods yet', () => {
      expect(flameStatus(cluster, [], 1)).toMatchObject({
        state: 'Pending',
        sessionManager: { ready: 0 },
        executorManager: { replicas: 3, ready: 0 },
        message: 'Waiting for the session manager to be ready (its pod does not exist yet); 0/3 executors ready',
      });
    });

    it('session manager stuck pulling its image', () => {
      const pulling = { phase: 'Pending', containerStatuses: [{ name: 'session-manager', state: { waiting: { reason: 'ImagePullBackOff' } } }] };
      expect(flameStatus(cluster, [sm(pulling), ex(0)], 1).message).toBe('Waiting for the session manager to be ready (session-manager: ImagePullBackOff); 1/3 executors ready');
    });

    it('session manager scheduled nowhere yet', () => {
      expect(flameStatus(cluster, [sm({ phase: 'Pending' })], 1).message).toBe('Waiting for the session manager to be ready (pod Pending); 0/3 executors ready');
    });

    it('session manager running but not ready yet', () => {
      expect(flameStatus(cluster, [sm(NOT_READY)], 1).message).toBe('Waiting for the session manager to be ready; 0/3 executors ready');
    });

    it('session manager ready, no executor yet', () => {
      expect(flameStatus(cluster, [sm(), ex(0, { phase: 'Pending' })], 1)).toMatchObject({ state: 'Pending', message: 'Waiting for an executor to be ready; 0/3 executors ready' });
    });

    it('replicas 0: Pending with the fixed message, even with the session manager ready', () => {
      const zero = withExecutors(cluster, { replicas: 0 });
      expect(flameStatus(zero, [sm()], 2)).toEqual({
        sessionManager: { ready: 1, endpoint: 'http://my-flame-session-manager:8080' },
        executorManager: { replicas: 0, ready: 0 },
        state: 'Pending',
        configGeneration: 2,
        observedGeneration: 7,
        message: 'No executors requested (spec.executorManager.replicas is 0)',
      });
      expect(NO_EXECUTORS_MESSAGE).toBe('No executors requested (spec.executorManager.replicas is 0)');
    });
  });

  describe('Failed', () => {
    it('the session manager pod failed: its reason and message', () => {
      const evicted = { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' };
      expect(flameStatus(cluster, [sm(evicted), ex(0), ex(1), ex(2)], 1)).toMatchObject({
        state: 'Failed',
        message: 'Session manager pod failed: Evicted: The node was low on resource: memory.',
      });
      expect(flameStatus(cluster, [sm({ phase: 'Failed', message: 'boom' })], 1).message).toBe('Session manager pod failed: boom');
      expect(flameStatus(cluster, [sm({ phase: 'Failed', reason: 'OOMKilled' })], 1).message).toBe('Session manager pod failed: OOMKilled');
      const crashed = { phase: 'Failed', containerStatuses: [{ name: 'session-manager', state: { terminated: { reason: 'Error' } } }] };
      expect(flameStatus(cluster, [sm(crashed)], 1).message).toBe('Session manager pod failed: container terminated (Error)');
      expect(flameStatus(cluster, [sm({ phase: 'Failed' })], 1).message).toBe('Session manager pod failed: no reason reported');
    });

    it('a failed session manager wins over 0 replicas', () => {
      expect(flameStatus(withExecutors(cluster, { replicas: 0 }), [sm({ phase: 'Failed', reason: 'Evicted' })], 1).state).toBe('Failed');
    });

    it('every requested executor exists and failed', () => {
      const failed = { phase: 'Failed', reason: 'Evicted', message: 'disk pressure' };
      expect(flameStatus(cluster, [sm(), ex(0, failed), ex(1, failed), ex(2, failed)], 1)).toMatchObject({
        state: 'Failed',
        executorManager: { replicas: 3, ready: 0 },
        message: 'All 3 executor pods failed (my-flame-executor-manager-0: Evicted: disk pressure)',
      });
    });

    it('not Failed while one executor is missing (it is being recreated) or any is not failed', () => {
      const failed = { phase: 'Failed' };
      expect(flameStatus(cluster, [sm(), ex(0, failed), ex(1, failed)], 1).state).toBe('Pending');
      expect(flameStatus(cluster, [sm(), ex(0, failed), ex(1, failed), ex(2, { phase: 'Pending' })], 1).state).toBe('Pending');
    });
  });

  it('counts only the requested executors, and no pod on its way out', () => {
    const leaving = pod('my-flame-executor-manager-1', READY, { deletionTimestamp: '2025-01-01T00:00:00Z' });
    const status = flameStatus(cluster, [sm(), ex(0), leaving, ex(3), ex(4), pod('someone-else', READY)], 1);
    expect(status.executorManager).toEqual({ replicas: 3, ready: 1 });
    expect(status.message).toBe('1/3 executors ready');
  });

  it('observedGeneration is 0 without metadata.generation', () => {
    const noGeneration: FlameCluster = { ...cluster, metadata: { name: 'my-flame' } };
    expect(flameStatus(noGeneration, [], 0).observedGeneration).toBe(0);
  });

  it('does not throw on a cluster that failed validation (a status still has to be written)', () => {
    const broken = { apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', metadata: { name: 'my-flame', generation: 2 }, spec: { executorManager: { replicas: -1 } } } as unknown as FlameCluster;
    expect(flameStatus(broken, [], 0)).toMatchObject({ executorManager: { replicas: 0, ready: 0 }, observedGeneration: 2 });
    const noSpec = { apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', metadata: { name: 'my-flame' } } as unknown as FlameCluster;
    expect(flameStatus(noSpec, [], 0).state).toBe('Pending');
  });
});
