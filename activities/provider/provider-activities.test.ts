import { describe, expect, it } from 'vitest';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { deploymentProvider } from '../../providers/deployment/index.ts';
import { kaitoProvider } from '../../providers/kaito/index.ts';
import type { ProviderDefinition } from '../../providers/contract.ts';
import { modelDeploymentResource } from '../deployment-ref.ts';
import { example } from '../testing/examples.ts';
import { FakeObjects, FakeRecorder, kubeStatusError, noCluster } from '../testing/fake-kube.ts';
import { runActivity } from '../testing/run-activity.ts';
import { APPLIED_STATE_ANNOTATION, RENDER_HASH_ANNOTATION } from './applied-state.ts';
import { createProviderActivities } from './create-provider-activities.ts';

const NS = 'team-a';
const ref = { namespace: NS, name: 'tiny-llama', uid: 'u-1' };
const deploymentAt = (name = 'tiny-llama') => ({ group: 'apps', version: 'v1', plural: 'deployments', namespace: NS, name });

/** The example deployment for the `deployment` provider as stored, `edit` applied to its spec; the provider's activities over the fakes. */
function cluster(edit: (spec: Record<string, unknown>) => object = (spec) => spec, provider: ProviderDefinition = deploymentProvider, providerCrd?: () => Promise<unknown>) {
  const raw = example('llama-cpu-deployment.yaml');
  const objects = new FakeObjects();
  const recorder = new FakeRecorder();
  const wrote: string[] = [];
  const put = (change: (spec: Record<string, unknown>) => object) => {
    const current = objects.at(modelDeploymentResource(ref)) ?? raw;
    objects.put(modelDeploymentResource(ref), { ...current, metadata: { ...current.metadata, namespace: NS, uid: 'u-1', generation: 1 }, spec: change({ ...(current.spec as object) }) });
  };
  put(edit);
  const deps = { kc: noCluster(), wrote: (stored: AnyObject) => wrote.push(`${stored.kind}/${stored.metadata?.name}`) };
  const activities = createProviderActivities(provider, deps, { objects, recorder, ...(providerCrd ? { providerCrd } : {}) });
  return { objects, recorder, wrote, activities, edit: put, deployment: () => objects.at(modelDeploymentResource(ref)) };
}

describe('checkCompatibility', () => {
  it("the provider's answer for the spec; a deployment gone is no objection", async () => {
    const { activities } = cluster();
    expect(await runActivity(activities.checkCompatibility, ref)).toMatchObject({ compatible: true });
    expect(await runActivity(activities.checkCompatibility, { ...ref, uid: 'u-2' })).toEqual({ compatible: true, errors: [], warnings: [] });
  });
});

describe('applyResource', () => {
  it('creates the resource stamped with its render hash and applied state, tells the write, posts ResourceCreated', async () => {
    const { activities, objects, recorder, wrote } = cluster();
    expect(await runActivity(activities.applyResource, ref)).toMatchObject({ result: 'created', resource: { kind: 'Deployment', name: 'tiny-llama' } });
    const annotations = objects.at(deploymentAt())?.metadata?.annotations ?? {};
    expect(Object.keys(annotations)).toEqual(expect.arrayContaining([RENDER_HASH_ANNOTATION, APPLIED_STATE_ANNOTATION]));
    expect(wrote).toContain('Deployment/tiny-llama');
    expect(recorder.reasons()).toEqual(['ResourceCreated']);
  });

  it('unchanged on the next pass; an edit by someone else is put back with a DriftDetected event', async () => {
    const { activities, objects, recorder } = cluster();
    await runActivity(activities.applyResource, ref);
    expect(await runActivity(activities.applyResource, ref)).toMatchObject({ result: 'unchanged' });
    const stored = objects.at(deploymentAt())!;
    objects.put(deploymentAt(), { ...stored, spec: { ...(stored.spec as object), replicas: 7 } });
    expect(await runActivity(activities.applyResource, ref)).toMatchObject({ result: 'drift-restored' });
    expect(recorder.reasons()).toEqual(['ResourceCreated', 'DriftDetected']);
  });

  it('an identity field changed: the resource is deleted to be recreated, with a warning', async () => {
    const { activities, objects, recorder, edit } = cluster();
    await runActivity(activities.applyResource, ref);
    edit((spec) => ({ ...spec, model: { ...(spec.model as object), id: '/model-cache/other.gguf' } }));
    expect(await runActivity(activities.applyResource, ref)).toMatchObject({ result: 'recreating', identityChanges: ['model.id'] });
    expect(recorder.reasons()).toContain('RecreatingResource');
    expect(objects.at(deploymentAt())).toBeUndefined();
  });

  it("an object the API server refuses is the outcome's refusal, not a failure; a forbidden write fails, not retried", async () => {
    const refused = cluster();
    refused.objects.failNext('apply', kubeStatusError(422, 'Invalid', 'spec.replicas: Invalid value'), 'deployments');
    expect(await runActivity(refused.activities.applyResource, ref)).toMatchObject({ result: 'refused', refusal: expect.stringContaining('spec.replicas: Invalid value') });
    const forbidden = cluster();
    forbidden.objects.failNext('apply', kubeStatusError(403, 'Forbidden'), 'deployments');
    await expect(runActivity(forbidden.activities.applyResource, ref)).rejects.toMatchObject({ type: 'KubeForbidden', nonRetryable: true });
  });

  it("a provider whose CRD is not installed: crd-missing, nothing written", async () => {
    const { activities, objects } = cluster((spec) => ({ ...spec, provider: { name: 'kaito' } }), kaitoProvider, async () => undefined);
    expect(await runActivity(activities.applyResource, ref)).toMatchObject({ result: 'crd-missing' });
    expect(objects.calls.filter((c) => c.startsWith('apply'))).toEqual([]);
  });
});

describe('observeResource', () => {
  it('writes the status the resource gives: not created yet, then created', async () => {
    const { activities, deployment } = cluster();
    expect(await runActivity(activities.observeResource, ref)).toMatchObject({ phase: 'Pending', message: "Deployment 'tiny-llama' not created yet", ready: false });
    await runActivity(activities.applyResource, ref);
    await runActivity(activities.observeResource, ref);
    expect(deployment()?.status).toMatchObject({
      observedGeneration: 1,
      provider: { resourceName: 'tiny-llama', resourceKind: 'Deployment' },
      conditions: expect.arrayContaining([expect.objectContaining({ type: 'ProviderCompatible', status: 'True' }), expect.objectContaining({ type: 'ResourceCreated', status: 'True' })]),
    });
  });

  it('Terminating for a deployment gone', async () => {
    expect(await runActivity(cluster().activities.observeResource, { ...ref, uid: 'u-2' })).toEqual({ phase: 'Terminating', message: undefined, ready: false });
  });
});

describe('reconcileResource', () => {
  it('applies and observes in one step', async () => {
    const { activities, deployment } = cluster();
    const outcome = await runActivity(activities.reconcileResource, ref);
    expect(outcome).toMatchObject({ compatibility: { compatible: true }, apply: { result: 'created' }, observed: { ready: false } });
    expect(deployment()?.status).toMatchObject({ provider: { resourceName: 'tiny-llama' } });
  });

  it('an incompatible spec is Failed with a ProviderError event, nothing applied', async () => {
    const { activities, recorder, objects } = cluster((spec) => ({ ...spec, serving: { mode: 'disaggregated' } }));
    const outcome = await runActivity(activities.reconcileResource, ref);
    expect(outcome).toMatchObject({ compatibility: { compatible: false }, apply: undefined, observed: { phase: 'Failed' } });
    expect(recorder.reasons()).toEqual(['ProviderError']);
    expect(objects.at(deploymentAt())).toBeUndefined();
  });
});

describe('cleanupResources', () => {
  it('deletes what the provider made for the deployment; one held by a finalizer remains', async () => {
    const { activities, objects } = cluster();
    await runActivity(activities.applyResource, ref);
    expect(await runActivity(activities.cleanupResources, ref)).toEqual({ gone: true, remaining: [] });
    expect(objects.at(deploymentAt())).toBeUndefined();
    await runActivity(activities.applyResource, ref);
    const stored = objects.at(deploymentAt())!;
    objects.put(deploymentAt(), { ...stored, metadata: { ...stored.metadata, finalizers: ['example.com/hold'] } });
    expect(await runActivity(activities.cleanupResources, ref)).toEqual({ gone: false, remaining: ['Deployment team-a/tiny-llama'] });
  });
});
