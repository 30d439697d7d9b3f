import { describe, expect, it } from 'vitest';
import { ASYA_FINALIZER, ASYNC_ACTOR_PLURAL, ASYA_GROUP, ASYA_VERSION, RUNTIME_CONFIG_MAP } from '../../api/asya/constants.ts';
import type { ActorStatusInput, Binding } from '../../contract/asya-activities.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { example } from '../testing/examples.ts';
import { FakeObjects, FakeRecorder, kubeStatusError, noCluster, noSuchKind } from '../testing/fake-kube.ts';
import { runActivity } from '../testing/run-activity.ts';
import type { ActorBroker } from './actor-broker.ts';
import { CONFIG_MAPS, scaledObjectResource, workloadResource } from './asya-clients.ts';
import { createAsyaActivities } from './create-asya-activities.ts';

const NS = 'team-a';
const actorResource = (name: string) => ({ group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL, namespace: NS, name });

/** An example actor as stored in namespace team-a, `edit` applied to its spec. */
function actor(file: string, edit: (spec: Record<string, unknown>) => object = (spec) => spec, metadata: object = {}): AnyObject {
  const raw = example(file);
  return { ...raw, metadata: { ...raw.metadata, namespace: NS, uid: 'u-1', generation: 1, ...metadata }, spec: edit({ ...(raw.spec as object) }) };
}

/** A broker that answers as told and remembers what it was asked. */
function fakeBroker(answer: { down?: boolean } = {}): ActorBroker & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async declare(name) {
      asked.push(`declare ${name}`);
      return answer.down ? { ready: false, reason: 'BrokerUnavailable', message: 'down' } : { ready: true, reason: 'QueuesDeclared', message: 'declared' };
    },
    async delete(name) {
      asked.push(`delete ${name}`);
      return answer.down ? { ok: false, message: `the queues of '${name}' (down)` } : { ok: true, changes: [`deleted queue asya-${name}`] };
    },
  };
}

function cluster(stored: AnyObject | undefined, broker?: ActorBroker) {
  const objects = new FakeObjects();
  const recorder = new FakeRecorder();
  const name = stored?.metadata?.name ?? 'text-processor';
  if (stored) objects.put(actorResource(name), stored);
  const activities = createAsyaActivities({ kc: noCluster(), ...(broker ? { broker } : {}) }, { objects, recorder });
  return { objects, recorder, activities, ref: { namespace: NS, name, uid: 'u-1' } };
}

describe('assessAsyncActor', () => {
  it('a valid actor gets its finalizer before anything is made', async () => {
    const { activities, ref, objects } = cluster(actor('async-actor-standalone.yaml'));
    expect(await runActivity(activities.assessAsyncActor, ref)).toMatchObject({ found: true, mode: 'Standalone', hasFinalizer: true });
    expect(objects.at(actorResource(ref.name))?.metadata?.finalizers).toEqual([ASYA_FINALIZER]);
  });

  it('an invalid actor is refused with an InvalidSpec event and gets no finalizer', async () => {
    const { activities, ref, recorder, objects } = cluster(actor('async-actor-standalone.yaml', (spec) => ({ ...spec, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', namespace: 'elsewhere' } })));
    expect(await runActivity(activities.assessAsyncActor, ref)).toMatchObject({ found: true, invalid: expect.stringContaining('spec.workloadRef.namespace') });
    expect(recorder.reasons()).toEqual(['InvalidSpec']);
    expect(objects.at(actorResource(ref.name))?.metadata?.finalizers).toBeUndefined();
  });

  it('not found when gone; deleting as such', async () => {
    expect(await runActivity(cluster(undefined).activities.assessAsyncActor, { namespace: NS, name: 'x', uid: 'u-1' })).toEqual({ found: false });
    const deleting = cluster(actor('async-actor-standalone.yaml', undefined, { deletionTimestamp: '2026-01-01T00:00:00Z' }));
    expect(await runActivity(deleting.activities.assessAsyncActor, deleting.ref)).toMatchObject({ deleting: true, deletionTimestamp: '2026-01-01T00:00:00Z' });
  });
});

describe('ensureActorQueues', () => {
  it('declares on the broker; without one, or for another transport, says so', async () => {
    const broker = fakeBroker();
    const withBroker = cluster(actor('async-actor-standalone.yaml'), broker);
    expect(await runActivity(withBroker.activities.ensureActorQueues, withBroker.ref)).toMatchObject({ ready: true, reason: 'QueuesDeclared' });
    expect(broker.asked).toEqual(['declare text-processor']);
    const without = cluster(actor('async-actor-standalone.yaml'));
    expect(await runActivity(without.activities.ensureActorQueues, without.ref)).toMatchObject({ ready: false, reason: 'BrokerNotConfigured' });
    const sqs = cluster(actor('async-actor-standalone.yaml', (spec) => ({ ...spec, transport: 'sqs' })), broker);
    expect(await runActivity(sqs.activities.ensureActorQueues, sqs.ref)).toMatchObject({ ready: true, reason: 'NotManaged' });
  });

  it('fails as KubeNotFound (not retried) for an actor gone', async () => {
    const { activities } = cluster(undefined, fakeBroker());
    await expect(runActivity(activities.ensureActorQueues, { namespace: NS, name: 'x', uid: 'u-1' })).rejects.toMatchObject({ type: 'KubeNotFound', nonRetryable: true });
  });
});

describe('applyStandalone', () => {
  it('applies the runtime ConfigMap, the workload and its ScaledObject', async () => {
    const { activities, ref, objects } = cluster(actor('async-actor-standalone.yaml'));
    const outcome = await runActivity(activities.applyStandalone, ref);
    expect(outcome).toMatchObject({ workload: 'Deployment/team-a/text-processor', scaling: { status: 'True', reason: 'ScaledObjectApplied' } });
    expect(objects.at(workloadResource('Deployment', NS, 'text-processor'))).toBeDefined();
    expect(objects.at(scaledObjectResource(NS, 'text-processor'))).toBeDefined();
    expect(objects.at({ ...CONFIG_MAPS, namespace: NS, name: RUNTIME_CONFIG_MAP })).toBeDefined();
  });

  it('KEDA not installed is a condition, not a failure', async () => {
    const { activities, ref, objects } = cluster(actor('async-actor-standalone.yaml'));
    objects.failNext('apply', noSuchKind(), 'scaledobjects');
    expect(await runActivity(activities.applyStandalone, ref)).toMatchObject({ scaling: { status: 'False', reason: 'KedaNotInstalled' } });
  });

  it('a refused apply fails with its type', async () => {
    const { activities, ref, objects } = cluster(actor('async-actor-standalone.yaml'));
    objects.failNext('apply', kubeStatusError(403, 'Forbidden', 'configmaps is forbidden'));
    await expect(runActivity(activities.applyStandalone, ref)).rejects.toMatchObject({ type: 'KubeForbidden', nonRetryable: true });
  });
});

/** The binding example pointed at a Deployment `model` in team-a, which exists (with `fields`). */
function boundTo(fields: AnyObject = {}) {
  const stored = actor('async-actor-binding.yaml', (spec) => ({ ...spec, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'model' }, runtime: { ...(spec.runtime as object), targetURL: 'http://model:80/v1' } }));
  const c = cluster(stored);
  const model = c.objects.put(workloadResource('Deployment', NS, 'model'), { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 2, template: { spec: { containers: [{ name: 'server', image: 'vllm:1' }] } } }, ...fields });
  return { ...c, model };
}

describe('resolveActorTarget', () => {
  it('binds to the Deployment named, with its replica counts', async () => {
    const { activities, ref } = boundTo();
    expect(await runActivity(activities.resolveActorTarget, ref)).toMatchObject({
      resolved: true,
      target: { kind: 'Deployment', name: 'model', namespace: NS },
      replicas: 2,
      targetURL: 'http://model:80/v1',
      scaleTarget: { kind: 'Deployment', name: 'model' },
    });
  });

  it('a workload that does not exist yet is a wait', async () => {
    const { activities, ref, objects } = boundTo();
    await objects.remove(workloadResource('Deployment', NS, 'model'));
    expect(await runActivity(activities.resolveActorTarget, ref)).toEqual({ resolved: false, reason: 'TargetNotReady', message: 'Deployment team-a/model does not exist' });
  });

  it('a ModelDeployment with no provider resource yet is a wait; its endpoint is not needed for that', async () => {
    const stored = actor('async-actor-binding.yaml');
    const { activities, ref, objects } = cluster(stored);
    objects.put({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments', namespace: NS, name: 'gemma-cpu' }, { metadata: {}, spec: {} });
    expect(await runActivity(activities.resolveActorTarget, ref)).toEqual({ resolved: false, reason: 'TargetNotReady', message: 'ModelDeployment team-a/gemma-cpu has no provider resource yet' });
  });
});

describe('injectRuntime', () => {
  it("adds runtime and sidecar beside the owner's containers and applies the binding's ScaledObject", async () => {
    const { activities, ref, objects } = boundTo();
    const resolution = await runActivity(activities.resolveActorTarget, ref);
    if (!resolution.resolved) throw new Error(resolution.message);
    const binding: Binding = { target: resolution.target!, targetURL: resolution.targetURL!, scaleTarget: resolution.scaleTarget! };
    const outcome = await runActivity(activities.injectRuntime, ref, binding);
    expect(outcome).toMatchObject({ changes: ['injected into Deployment/team-a/model'], scaling: { reason: 'ScaledObjectApplied' } });
    const containers = (objects.at(workloadResource('Deployment', NS, 'model'))?.spec as { template: { spec: { containers: { name: string }[] } } }).template.spec.containers.map((c) => c.name);
    expect(containers).toEqual(expect.arrayContaining(['asya-runtime', 'asya-sidecar']));
  });
});

describe('writeActorStatus', () => {
  it('writes the fields and conditions given', async () => {
    const { activities, ref, objects } = cluster(actor('async-actor-standalone.yaml'));
    const input: ActorStatusInput = { mode: 'Standalone', conflictCount: 0, status: 'Running', conditions: [{ type: 'WorkloadReady', status: 'True', reason: 'Ready', message: 'ok' }] };
    await runActivity(activities.writeActorStatus, ref, input);
    expect(objects.at(actorResource(ref.name))?.status).toMatchObject({ conditions: [expect.objectContaining({ type: 'WorkloadReady', status: 'True' })] });
  });
});

describe('releaseActor', () => {
  it("un-injects, deletes its ScaledObject, its queues and the namespace's runtime ConfigMap when no other actor uses it", async () => {
    const broker = fakeBroker();
    const { objects, ref } = boundTo({ metadata: { labels: {} } });
    const activities = createAsyaActivities({ kc: noCluster(), broker }, { objects, recorder: new FakeRecorder() });
    objects.put(scaledObjectResource(NS, ref.name), { metadata: {} });
    objects.put({ ...CONFIG_MAPS, namespace: NS, name: RUNTIME_CONFIG_MAP }, { metadata: { labels: { 'app.kubernetes.io/part-of': 'asya' } } });
    const target = { apiVersion: 'apps/v1', kind: 'Deployment' as const, name: 'model', namespace: NS };
    const outcome = await runActivity(activities.releaseActor, ref, target);
    expect(outcome.remaining).toEqual([]);
    expect(outcome.changes).toEqual([
      'un-injected Deployment/team-a/model',
      `deleted ScaledObject ${ref.name}`,
      `deleted queue asya-${ref.name}`,
      `deleted ConfigMap ${RUNTIME_CONFIG_MAP} (no other AsyncActor in team-a uses it)`,
    ]);
  });

  it("leaves another actor's workload alone, and says what it could not release yet", async () => {
    const { objects, ref } = boundTo({ metadata: { labels: { 'asya.sh/managed-by': 'someone-else' } } });
    const activities = createAsyaActivities({ kc: noCluster(), broker: fakeBroker({ down: true }) }, { objects, recorder: new FakeRecorder() });
    objects.failNext('remove', kubeStatusError(503, 'ServiceUnavailable'), 'scaledobjects');
    const outcome = await runActivity(activities.releaseActor, ref, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'model', namespace: NS });
    expect(outcome.changes).toEqual([]);
    expect(outcome.remaining).toEqual([`ScaledObject ${ref.name}`, `the queues of '${ref.name}' (down)`]);
  });
  it('with no recorded target, one the API server cannot resolve now stays remaining; one that is gone is no injection', async () => {
    const outage = boundTo();
    outage.objects.failNext('get', kubeStatusError(503, 'ServiceUnavailable'), 'deployments');
    const unresolved = await runActivity(outage.activities.releaseActor, outage.ref, undefined);
    expect(unresolved.remaining).toEqual([expect.stringMatching(/^the injection into Deployment model \(not resolved: .*ServiceUnavailable/)]);
    expect(unresolved.changes).not.toContain('un-injected Deployment/team-a/model');
    const gone = boundTo();
    gone.objects.failNext('get', kubeStatusError(404, 'NotFound'), 'deployments');
    expect((await runActivity(gone.activities.releaseActor, gone.ref, undefined)).remaining).toEqual([]);
  });
});

describe('removeActorFinalizer and recordActorEvent', () => {
  it("remove the actor's finalizer; record the event the workflow asks for", async () => {
    const { activities, ref, objects, recorder } = cluster(actor('async-actor-standalone.yaml', undefined, { finalizers: [ASYA_FINALIZER] }));
    await runActivity(activities.removeActorFinalizer, ref);
    expect(objects.at(actorResource(ref.name))?.metadata?.finalizers).toEqual([]);
    await runActivity(activities.recordActorEvent, ref, { type: 'Normal', reason: 'Bound', message: 'ok' });
    expect(recorder.reasons()).toEqual(['Bound']);
  });
});
