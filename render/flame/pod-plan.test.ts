import { describe, expect, it } from 'vitest';
import { seedCluster, seedSpec, withExecutors } from '../../api/flame/testing.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { planPods, type PodPlan } from './pod-plan.ts';
import { renderFlameCluster } from './render.ts';

const desired = (cluster: FlameCluster): AnyObject[] => {
  const r = renderFlameCluster(cluster);
  return [r.sessionManagerPod, ...r.executorPods];
};
const names = (pods: readonly AnyObject[]) => pods.map((p) => p.metadata?.name);
const withReplicas = (replicas: number) => withExecutors(seedCluster(), { replicas });

/** What the API server would hold after the plan ran (deletes immediate, as for unscheduled pods). */
function apply(existing: AnyObject[], plan: PodPlan): AnyObject[] {
  const removed = new Set([...plan.remove, ...names(plan.recreate)]);
  return [...existing.filter((p) => !removed.has(p.metadata?.name ?? '')), ...plan.recreate, ...plan.create];
}

const EMPTY: PodPlan = { create: [], recreate: [], remove: [], waiting: [] };

describe('planPods: scaling 3 → 5 → 2 → 0', () => {
  it('from nothing: creates the session manager and executors 0..2', () => {
    const plan = planPods(desired(withReplicas(3)), []);
    expect(names(plan.create)).toEqual(['my-flame-session-manager', 'my-flame-executor-manager-0', 'my-flame-executor-manager-1', 'my-flame-executor-manager-2']);
    expect(plan).toMatchObject({ recreate: [], remove: [], waiting: [] });
  });

  it('walks the whole way, touching only what changes', () => {
    let pods = desired(withReplicas(3));
    expect(planPods(desired(withReplicas(3)), pods)).toEqual(EMPTY);

    const up = planPods(desired(withReplicas(5)), pods);
    expect({ create: names(up.create), remove: up.remove }).toEqual({ create: ['my-flame-executor-manager-3', 'my-flame-executor-manager-4'], remove: [] });
    pods = apply(pods, up);

    const down = planPods(desired(withReplicas(2)), pods);
    expect(down).toEqual({ ...EMPTY, remove: ['my-flame-executor-manager-4', 'my-flame-executor-manager-3', 'my-flame-executor-manager-2'] });
    pods = apply(pods, down);
    expect(names(pods).sort()).toEqual(['my-flame-executor-manager-0', 'my-flame-executor-manager-1', 'my-flame-session-manager']);

    const zero = planPods(desired(withReplicas(0)), pods);
    expect(zero).toEqual({ ...EMPTY, remove: ['my-flame-executor-manager-1', 'my-flame-executor-manager-0'] });
    expect(names(apply(pods, zero))).toEqual(['my-flame-session-manager']);
  });

  it('fills a gap (a deleted executor is created again under its name)', () => {
    const pods = desired(withReplicas(3)).filter((p) => p.metadata?.name !== 'my-flame-executor-manager-1');
    expect(planPods(desired(withReplicas(3)), pods)).toEqual({ ...EMPTY, create: [desired(withReplicas(3))[2]] });
  });

  it('removes highest index first, numerically (10 before 9)', () => {
    const pods = desired(withReplicas(11));
    expect(planPods(desired(withReplicas(8)), pods).remove).toEqual(['my-flame-executor-manager-10', 'my-flame-executor-manager-9', 'my-flame-executor-manager-8']);
  });
});

describe('planPods: stale pods are recreated', () => {
  const running = desired(withReplicas(3));

  it('a configuration change recreates every pod', () => {
    const plan = planPods(desired(withExecutors(seedCluster(), { maxExecutors: 20 })), running);
    expect(names(plan.recreate)).toEqual(names(running));
    expect(plan.create).toEqual([]);
  });

  it('a session manager image change recreates only the session manager', () => {
    const spec = seedSpec();
    spec.sessionManager.image = 'xflops/flame-session:v0.2.0';
    const plan = planPods(desired(seedCluster({ spec })), running);
    expect(names(plan.recreate)).toEqual(['my-flame-session-manager']);
  });

  it('an executor image change recreates only the executors', () => {
    const plan = planPods(desired(withExecutors(seedCluster(), { image: 'xflops/flame-executor:v0.2.0' })), running);
    expect(names(plan.recreate)).toEqual(['my-flame-executor-manager-0', 'my-flame-executor-manager-1', 'my-flame-executor-manager-2']);
  });

  it('an executor resources change recreates only the executors', () => {
    const plan = planPods(desired(withExecutors(seedCluster(), { resources: { limits: { cpu: '2' } } })), running);
    expect(names(plan.recreate)).toEqual(['my-flame-executor-manager-0', 'my-flame-executor-manager-1', 'my-flame-executor-manager-2']);
  });

  it('an image edited on the pod itself (pods allow it) makes the pod stale', () => {
    const edited = structuredClone(running);
    (edited[2]!.spec as { containers: { image: string }[] }).containers[0]!.image = 'someone/else:latest';
    expect(names(planPods(running, edited).recreate)).toEqual(['my-flame-executor-manager-1']);
  });

  it('a pod missing the hash annotations (made by hand or by an older version) is stale', () => {
    const bare = structuredClone(running);
    delete bare[0]!.metadata!.annotations;
    expect(names(planPods(running, bare).recreate)).toEqual(['my-flame-session-manager']);
  });

  it('what the API server adds (defaults, status, uid) does not make a pod stale', () => {
    const stored = running.map((p) => {
      const pod = structuredClone(p) as AnyObject & { spec: { containers: Record<string, unknown>[] } };
      pod.metadata!.uid = `uid-${pod.metadata!.name}`;
      pod.metadata!.resourceVersion = '42';
      pod.spec.containers[0]!.imagePullPolicy = 'IfNotPresent';
      pod.spec.containers[0]!.terminationMessagePath = '/dev/termination-log';
      (pod.spec as Record<string, unknown>).restartPolicy = 'Always';
      pod.status = { phase: 'Running' };
      return pod;
    });
    expect(planPods(running, stored)).toEqual(EMPTY);
  });
});

describe('planPods: terminating pods', () => {
  const running = desired(withReplicas(3));
  const terminating = (pod: AnyObject): AnyObject => ({ ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' } });

  it('a desired pod whose old pod still terminates waits: nothing is created or deleted under its name', () => {
    const pods = running.map((p, i) => (i === 1 ? terminating(p) : p));
    expect(planPods(running, pods)).toEqual({ ...EMPTY, waiting: ['my-flame-executor-manager-0'] });
  });

  it('a stale pod already terminating waits instead of being deleted again', () => {
    const next = desired(withExecutors(seedCluster(), { maxExecutors: 20 }));
    const pods = running.map((p, i) => (i === 0 ? terminating(p) : p));
    const plan = planPods(next, pods);
    expect(plan.waiting).toEqual(['my-flame-session-manager']);
    expect(names(plan.recreate)).toEqual(['my-flame-executor-manager-0', 'my-flame-executor-manager-1', 'my-flame-executor-manager-2']);
  });

  it('an unwanted pod already terminating is not removed again', () => {
    const pods = [...running, terminating(desired(withReplicas(5))[4]!), desired(withReplicas(5))[5]!];
    expect(planPods(running, pods)).toEqual({ ...EMPTY, remove: ['my-flame-executor-manager-4'] });
  });
});

describe('planPods: only our pods count', () => {
  it('pods without the cluster label are ignored, even under a name we want', () => {
    const running = desired(withReplicas(1));
    const foreign: AnyObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'my-flame-executor-manager-7', labels: { app: 'other' } } };
    const impostor: AnyObject = { ...running[1]!, metadata: { ...running[1]!.metadata, labels: {} } };
    const plan = planPods(running, [running[0]!, foreign, impostor]);
    expect(plan.remove).toEqual([]);
    expect(names(plan.create)).toEqual(['my-flame-executor-manager-0']);
  });

  it('a labelled pod without an index (not one we render) is left alone', () => {
    const running = desired(withReplicas(1));
    const debug: AnyObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'my-flame-debug', labels: { 'flame.xflops.io/cluster': 'my-flame' } } };
    const extra = desired(withReplicas(2))[2]!;
    expect(planPods(running, [...running, debug, extra])).toEqual({ ...EMPTY, remove: ['my-flame-executor-manager-1'] });
  });
});
