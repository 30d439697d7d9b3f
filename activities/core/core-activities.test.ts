import { describe, expect, it } from 'vitest';
import { API_VERSION, FINALIZER, MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIGS } from '../../api/constants.ts';
import type { CoreStatus, EventInput } from '../../contract/core-activities.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { modelDeploymentResource } from '../deployment-ref.ts';
import { runActivity } from '../testing/run-activity.ts';
import { FakeObjects, FakeRecorder, kubeStatusError, noCluster } from '../testing/fake-kube.ts';
import { createCoreActivities } from './create-core-activities.ts';

const ref = { namespace: 'team-a', name: 'qwen', uid: 'u-1' };
const SPEC = { model: { id: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF' }, engine: { type: 'llamacpp' }, resources: { memory: '4Gi', cpu: '2' }, image: 'runner:1' };

function deployment(fields: { spec?: object; status?: object; metadata?: object } = {}): AnyObject {
  return { apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, metadata: { uid: 'u-1', generation: 2, ...fields.metadata }, spec: fields.spec ?? SPEC, ...(fields.status ? { status: fields.status } : {}) };
}

/** A provider's config as its worker reports it: alive, its CRD installed unless said otherwise. */
function providerConfig(name: string, status: object = { ready: true, upstreamCRDVersion: 'v1alpha1' }): AnyObject {
  return { apiVersion: API_VERSION, kind: 'InferenceProviderConfig', metadata: { name }, spec: { capabilities: { engines: ['llamacpp'], servingModes: ['aggregated'], cpuSupport: true, gpuSupport: false }, selectionRules: [{ condition: "spec.engine.type == 'llamacpp'", priority: 10 }] }, status };
}

function cluster(md: AnyObject | undefined, configs: AnyObject[] = [], secrets: string[] = []) {
  const objects = new FakeObjects();
  const recorder = new FakeRecorder();
  if (md) objects.put(modelDeploymentResource(ref), md);
  for (const c of configs) objects.put({ ...PROVIDER_CONFIGS, name: c.metadata!.name! }, c);
  const parts = { objects, recorder, secretExists: async (_namespace: string, name: string) => secrets.includes(name) };
  return { objects, recorder, activities: createCoreActivities({ kc: noCluster() }, parts), stored: () => objects.at(modelDeploymentResource(ref)) };
}

describe('readDeployment', () => {
  it('snapshots this incarnation: finalizer, pause, the provider asked for and the one selected, the resource made', async () => {
    const md = deployment({
      metadata: { finalizers: [FINALIZER], annotations: { 'kubeairunway.ai/reconcile-paused': 'true' } },
      spec: { ...SPEC, provider: { name: 'kaito' } },
      status: { provider: { name: 'kaito', selectedReason: 'explicit', resourceKind: 'Workspace', resourceName: 'qwen' } },
    });
    const { activities } = cluster(md);
    expect(await runActivity(activities.readDeployment, ref)).toMatchObject({
      uid: 'u-1',
      generation: 2,
      hasFinalizer: true,
      explicitProvider: 'kaito',
      selectedProvider: 'kaito',
      selectedReason: 'explicit',
      resource: 'Workspace team-a/qwen',
    });
  });

  it('null for an object gone, or replaced by another of the same name', async () => {
    expect(await runActivity(cluster(undefined).activities.readDeployment, ref)).toBeNull();
    expect(await runActivity(cluster(deployment({ metadata: { uid: 'u-2' } })).activities.readDeployment, ref)).toBeNull();
  });

  it('an API server refusal leaves as its failure type: Forbidden never retried, Unavailable retried', async () => {
    const { objects, activities } = cluster(deployment());
    objects.failNext('get', kubeStatusError(403, 'Forbidden'));
    await expect(runActivity(activities.readDeployment, ref)).rejects.toMatchObject({ type: 'KubeForbidden', nonRetryable: true });
    objects.failNext('get', kubeStatusError(503, 'ServiceUnavailable'));
    await expect(runActivity(activities.readDeployment, ref)).rejects.toMatchObject({ type: 'KubeUnavailable', nonRetryable: false });
  });
});

describe('addFinalizer and removeFinalizer', () => {
  it("add the core's finalizer beside another controller's, and remove only it", async () => {
    const { activities, stored } = cluster(deployment({ metadata: { finalizers: ['other.io/keep'] } }));
    await runActivity(activities.addFinalizer, ref);
    expect(stored()?.metadata?.finalizers).toEqual(['other.io/keep', FINALIZER]);
    await runActivity(activities.removeFinalizer, ref);
    expect(stored()?.metadata?.finalizers).toEqual(['other.io/keep']);
  });
});

describe('validateDeployment', () => {
  it('a valid spec; a missing Secret is a warning event, once per generation', async () => {
    const { activities, recorder } = cluster(deployment({ spec: { ...SPEC, secrets: { huggingFaceToken: 'hf-token' } } }));
    expect(await runActivity(activities.validateDeployment, ref)).toMatchObject({ valid: true, message: undefined });
    await runActivity(activities.validateDeployment, ref);
    expect(recorder.reasons()).toEqual(['SecretNotFound']);
  });

  it('a Secret that exists is no event', async () => {
    const { activities, recorder } = cluster(deployment({ spec: { ...SPEC, secrets: { huggingFaceToken: 'hf-token' } } }), [], ['hf-token']);
    await runActivity(activities.validateDeployment, ref);
    expect(recorder.events).toEqual([]);
  });

  it('a spec whose only fault is an unregistered provider waits for its registration', async () => {
    const { activities } = cluster(deployment({ spec: { ...SPEC, provider: { name: 'acme' } } }));
    expect(await runActivity(activities.validateDeployment, ref)).toMatchObject({ valid: false, waitingFor: "provider 'acme' to register (an InferenceProviderConfig named 'acme')" });
  });

  it('an invalid spec says why', async () => {
    const outcome = await runActivity(cluster(deployment({ spec: { engine: { type: 'llamacpp' } } })).activities.validateDeployment, ref);
    expect(outcome.valid).toBe(false);
    expect(outcome.message).toContain('model');
  });
});

describe('selectProvider', () => {
  it('selects the provider a live config offers, with a ProviderSelected event', async () => {
    const { activities, recorder } = cluster(deployment(), [providerConfig('kaito')]);
    expect(await runActivity(activities.selectProvider, ref, { selectorEnabled: true })).toMatchObject({ provider: 'kaito' });
    expect(recorder.reasons()).toEqual(['ProviderSelected']);
  });

  it('no provider when the selector is off and none is named; NotFound for an object gone', async () => {
    expect(await runActivity(cluster(deployment(), [providerConfig('kaito')]).activities.selectProvider, ref, { selectorEnabled: false })).toMatchObject({ provider: undefined, reason: 'NoProvider' });
    expect(await runActivity(cluster(undefined).activities.selectProvider, ref, { selectorEnabled: true })).toMatchObject({ provider: undefined, reason: 'NotFound' });
  });

  it('a provider whose heartbeat went stale is not healthy', async () => {
    const stale = providerConfig('kaito', { ready: true, upstreamCRDVersion: 'v1alpha1', lastHeartbeat: '2020-01-01T00:00:00Z' });
    expect(await runActivity(cluster(deployment(), [stale]).activities.selectProvider, ref, { selectorEnabled: true })).toMatchObject({ provider: undefined, reason: 'NoHealthyProvider' });
  });
});

describe('writeCoreStatus', () => {
  const validated = { status: 'True' as const, reason: 'ValidationPassed', message: 'ok' };

  it('writes its conditions and the selection', async () => {
    const { activities, stored } = cluster(deployment());
    await runActivity(activities.writeCoreStatus, ref, { observedGeneration: 2, validated, provider: { name: 'kaito', selectedReason: 'explicit' } });
    expect(stored()?.status).toMatchObject({ observedGeneration: 2, provider: { name: 'kaito', selectedReason: 'explicit' }, conditions: [{ type: 'Validated', status: 'True' }] });
  });

  it('takes back what a deleted resource claims when the provider reports its CRD missing, read again after a conflict', async () => {
    const claimed = { provider: { name: 'kaito' }, replicas: { desired: 1, ready: 1, available: 1 }, conditions: [{ type: 'Ready', status: 'True', reason: 'DeploymentReady', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    const { activities, objects, stored } = cluster(deployment({ status: claimed }), [providerConfig('kaito', { ready: true, upstreamCRDVersion: '' })]);
    objects.failNext('mergePatchStatus', kubeStatusError(409, 'Conflict'));
    const waiting: CoreStatus = { validated, phase: { phase: 'Pending', message: "Provider 'kaito' CRD not installed in cluster" } };
    await runActivity(activities.writeCoreStatus, ref, waiting);
    expect(stored()?.status).toMatchObject({ replicas: { ready: 0 }, conditions: expect.arrayContaining([expect.objectContaining({ type: 'Ready', status: 'False', reason: 'CRDNotInstalled' })]) });
    expect(objects.calls.filter((c) => c.startsWith('mergePatchStatus'))).toHaveLength(2);
  });

  it('nothing for an object gone', async () => {
    const { activities, objects } = cluster(undefined);
    await runActivity(activities.writeCoreStatus, ref, { validated });
    expect(objects.calls).toEqual(['get modeldeployments/qwen']);
  });
});

describe('recordEvent', () => {
  it('writes the event on the deployment; a failed write fails the activity (it is retried)', async () => {
    const objects = new FakeObjects();
    const recorder = new FakeRecorder();
    const activities = createCoreActivities({ kc: noCluster() }, { objects, recorder });
    const deleted: EventInput = { type: 'Normal', reason: 'Deleted', message: 'gone' };
    await runActivity(activities.recordEvent, ref, deleted);
    expect(recorder.events).toEqual([{ type: 'Normal', reason: 'Deleted', message: 'gone', on: 'ModelDeployment/qwen' }]);
    recorder.record = async () => Promise.reject(kubeStatusError(500, 'InternalError'));
    await expect(runActivity(activities.recordEvent, ref, deleted)).rejects.toMatchObject({ type: 'KubeUnavailable' });
  });
});

describe('assessDeployment', () => {
  it('adds the finalizer, validates and selects in one step', async () => {
    const { activities, stored } = cluster(deployment(), [providerConfig('kaito')]);
    const assessment = await runActivity(activities.assessDeployment, ref, { selectorEnabled: true });
    expect(assessment).toMatchObject({ finalizerAdded: true, validation: { valid: true }, selection: { provider: 'kaito' } });
    expect(stored()?.metadata?.finalizers).toEqual([FINALIZER]);
  });

  it('a deleting object is only snapshotted: no finalizer added, no validation', async () => {
    const { activities, stored } = cluster(deployment({ metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }));
    const assessment = await runActivity(activities.assessDeployment, ref, { selectorEnabled: true });
    expect(assessment).toEqual({ snapshot: expect.objectContaining({ deletionTimestamp: '2026-01-01T00:00:00Z' }), finalizerAdded: false });
    expect(stored()?.metadata?.finalizers).toBeUndefined();
  });

  it('during a switch, says whether a worker still serves the provider it leaves', async () => {
    const md = deployment({ metadata: { finalizers: [FINALIZER] }, spec: { ...SPEC, provider: { name: 'dynamo' } }, status: { provider: { name: 'kaito' } } });
    const { activities } = cluster(md, [providerConfig('kaito', { ready: false, upstreamCRDVersion: 'v1alpha1' }), providerConfig('dynamo')]);
    const assessment = await runActivity(activities.assessDeployment, ref, { selectorEnabled: true });
    expect(assessment).toMatchObject({ finalizerAdded: false, leaving: { provider: 'kaito', reported: true, served: false } });
    expect(assessment.selection).toBeUndefined();
  });
});
