import { describe, expect, it } from 'vitest';
import { FLAME_CLUSTER_PLURAL, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import { example } from '../testing/examples.ts';
import { FakeObjects, FakeRecorder, kubeStatusError, noCluster } from '../testing/fake-kube.ts';
import { runActivity } from '../testing/run-activity.ts';
import { createFlameActivities } from './create-flame-activities.ts';
import { PODS, SERVICES } from './flame-clients.ts';

const NS = 'team-a';
const ref = { namespace: NS, name: 'my-flame', uid: 'u-1' };
const clusterResource = { group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL, namespace: NS, name: 'my-flame' };
const pod = (name: string) => ({ ...PODS, namespace: NS, name });

/** The example cluster as stored, with `executors` executor managers, and the activities over it. */
function flame(executors = 1, metadata: object = {}) {
  const raw = example('flame-cluster.yaml');
  const spec = raw.spec as { executorManager: object };
  const objects = new FakeObjects();
  const recorder = new FakeRecorder();
  const wrote: string[] = [];
  objects.put(clusterResource, { ...raw, metadata: { ...raw.metadata, namespace: NS, uid: 'u-1', generation: 1, ...metadata }, spec: { ...spec, executorManager: { ...spec.executorManager, replicas: executors } } });
  const activities = createFlameActivities({ kc: noCluster(), wrote: (type, stored) => wrote.push(`${type}/${stored.metadata?.name}`) }, { objects, recorder });
  const edit = (change: (spec: Record<string, unknown>) => object) => {
    const current = objects.at(clusterResource)!;
    objects.put(clusterResource, { ...current, spec: change({ ...(current.spec as object) }) });
  };
  return { objects, recorder, activities, wrote, edit };
}

const podNames = (objects: FakeObjects) => objects.calls.filter((c) => c.startsWith('apply pods/')).map((c) => c.slice('apply pods/'.length));

describe('applyFlameCluster', () => {
  it('creates the configuration, the Services and the pods, says so in one event, and tells each write', async () => {
    const { activities, objects, recorder, wrote } = flame();
    const outcome = await runActivity(activities.applyFlameCluster, ref);
    expect(outcome).toMatchObject({ found: true, configGeneration: 1 });
    expect(outcome.changes[0]).toMatch(/^created ConfigMap .* \(config generation 1\)$/);
    expect(podNames(objects)).toEqual(['my-flame-session-manager', 'my-flame-executor-manager-0']);
    expect(recorder.reasons()).toEqual(['Reconciled']);
    expect(wrote).toContain('pods/my-flame-session-manager');
  });

  it('a second pass over an unchanged cluster changes nothing', async () => {
    const { activities, recorder } = flame();
    await runActivity(activities.applyFlameCluster, ref);
    expect(await runActivity(activities.applyFlameCluster, ref)).toMatchObject({ configGeneration: 1, changes: [] });
    expect(recorder.reasons()).toEqual(['Reconciled']);
  });

  it('a changed configuration is a new generation, its pods recreated; a pod still terminating is waited for', async () => {
    const { activities, objects, edit } = flame();
    await runActivity(activities.applyFlameCluster, ref);
    objects.put(pod('my-flame-session-manager'), { ...objects.at(pod('my-flame-session-manager')), metadata: { ...objects.at(pod('my-flame-session-manager'))!.metadata, finalizers: ['kubelet'] } });
    edit((spec) => ({ ...spec, sessionManager: { ...(spec.sessionManager as object), policy: 'fifo' } }));
    const outcome = await runActivity(activities.applyFlameCluster, ref);
    expect(outcome.configGeneration).toBe(2);
    expect(outcome.changes).toContain('deleting stale pod my-flame-session-manager');
    expect(outcome.changes).toContain('recreated pod my-flame-executor-manager-0 (configuration or image changed)');
    expect(outcome.waitingFor).toBe('pod my-flame-session-manager to terminate');
  });

  it('fewer executor managers: the extra pod is deleted', async () => {
    const { activities, edit } = flame(2);
    await runActivity(activities.applyFlameCluster, ref);
    edit((spec) => ({ ...spec, executorManager: { ...(spec.executorManager as object), replicas: 1 } }));
    expect((await runActivity(activities.applyFlameCluster, ref)).changes).toEqual(['deleted pod my-flame-executor-manager-1 (not requested)']);
  });

  it("a Service edited beside our fields is put back whole", async () => {
    const { activities, objects } = flame();
    await runActivity(activities.applyFlameCluster, ref);
    const [first] = await objects.list({ ...SERVICES, namespace: NS });
    const serviceRef = { ...SERVICES, namespace: NS, name: first!.metadata!.name! };
    objects.put(serviceRef, { ...first, spec: { ...(first!.spec as object), selector: { hijacked: 'yes' } } });
    const outcome = await runActivity(activities.applyFlameCluster, ref);
    expect(outcome.changes).toEqual([`restored Service ${serviceRef.name} (edited)`]);
    expect(objects.calls).toContain(`mergePatch services/${serviceRef.name}`);
    expect(objects.at(serviceRef)?.spec).not.toHaveProperty('selector.hijacked');
  });

  it('an invalid cluster is refused with an event and nothing is made; a paused or gone one is left alone', async () => {
    const invalid = flame();
    invalid.edit((spec) => ({ ...spec, sessionManager: {} }));
    expect(await runActivity(invalid.activities.applyFlameCluster, ref)).toMatchObject({ found: true, invalid: expect.any(String), changes: [] });
    expect(invalid.recorder.reasons()).toEqual(['InvalidSpec']);
    const paused = flame(1, { annotations: { 'kubeairunway.ai/reconcile-paused': 'true' } });
    expect(await runActivity(paused.activities.applyFlameCluster, ref)).toMatchObject({ paused: true, changes: [] });
    expect(await runActivity(paused.activities.applyFlameCluster, { ...ref, uid: 'u-2' })).toEqual({ found: false, changes: [] });
  });

  it('an API server outage fails the pass as retryable', async () => {
    const { activities, objects } = flame();
    objects.failNext('get', kubeStatusError(503, 'ServiceUnavailable'), 'configmaps');
    await expect(runActivity(activities.applyFlameCluster, ref)).rejects.toMatchObject({ type: 'KubeUnavailable', nonRetryable: false });
  });
});

describe('reportFlameStatus', () => {
  it("writes the status its pods give, and nothing when it is unchanged", async () => {
    const { activities, objects } = flame();
    await runActivity(activities.applyFlameCluster, ref);
    const status = await runActivity(activities.reportFlameStatus, ref, { configGeneration: 1 });
    expect(status).toMatchObject({ configGeneration: 1, observedGeneration: 1 });
    expect(objects.at(clusterResource)?.status).toEqual(status);
    await runActivity(activities.reportFlameStatus, ref, { configGeneration: 1 });
    expect(objects.calls.filter((c) => c.startsWith('applyStatus'))).toHaveLength(1);
  });

  it('an invalid cluster is Failed with its message', async () => {
    const { activities } = flame();
    expect(await runActivity(activities.reportFlameStatus, ref, { invalid: 'spec.sessionManager.image: required' })).toMatchObject({ state: 'Failed', message: 'spec.sessionManager.image: required' });
  });

  it('fails as KubeNotFound for a cluster gone', async () => {
    const { activities } = flame();
    await expect(runActivity(activities.reportFlameStatus, { ...ref, uid: 'u-2' }, {})).rejects.toMatchObject({ type: 'KubeNotFound' });
  });
});

