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

/** The apply step of one reconcileResource call. */
async function applied(activities: ReturnType<typeof cluster>['activities']) {
  return (await runActivity(activities.reconcileResource, ref)).apply;
}

describe('reconcileResource', () => {
  it('creates the resource stamped with its render hash and applied state, tells the write, posts ResourceCreated, and writes the status it gives', async () => {
    const { activities, objects, recorder, wrote, deployment } = cluster();
    const outcome = await runActivity(activities.reconcileResource, ref);
    expect(outcome).toMatchObject({ compatibility: { compatible: true }, apply: { result: 'created', resource: { kind: 'Deployment', name: 'tiny-llama' } }, observed: { ready: false } });
    const annotations = objects.at(deploymentAt())?.metadata?.annotations ?? {};
    expect(Object.keys(annotations)).toEqual(expect.arrayContaining([RENDER_HASH_ANNOTATION, APPLIED_STATE_ANNOTATION]));
    expect(wrote).toContain('Deployment/tiny-llama');
    expect(recorder.reasons()).toEqual(['ResourceCreated']);
    expect(deployment()?.status).toMatchObject({
      observedGeneration: 1,
      provider: { resourceName: 'tiny-llama', resourceKind: 'Deployment' },
      conditions: expect.arrayContaining([expect.objectContaining({ type: 'ProviderCompatible', status: 'True' }), expect.objectContaining({ type: 'ResourceCreated', status: 'True' })]),
    });
  });

  it('unchanged on the next pass; an edit by someone else is put back with a DriftDetected event', async () => {
    const { activities, objects, recorder } = cluster();
    await applied(activities);
    expect(await applied(activities)).toMatchObject({ result: 'unchanged' });
    const stored = objects.at(deploymentAt())!;
    objects.put(deploymentAt(), { ...stored, spec: { ...(stored.spec as object), replicas: 7 } });
    expect(await applied(activities)).toMatchObject({ result: 'drift-restored' });
    expect(recorder.reasons()).toEqual(['ResourceCreated', 'DriftDetected']);
  });

  it('an identity field changed: the resource is deleted to be recreated, with a warning', async () => {
    const { activities, objects, recorder, edit } = cluster();
    await applied(activities);
    edit((spec) => ({ ...spec, model: { ...(spec.model as object), id: '/model-cache/other.gguf' } }));
    expect(await applied(activities)).toMatchObject({ result: 'recreating', identityChanges: ['model.id'] });
    expect(recorder.reasons()).toContain('RecreatingResource');
    expect(objects.at(deploymentAt())).toBeUndefined();
  });

  it("an object the API server refuses is the outcome's refusal, not a failure; a forbidden write fails, not retried", async () => {
    const refused = cluster();
    refused.objects.failNext('apply', kubeStatusError(422, 'Invalid', 'spec.replicas: Invalid value'), 'deployments');
    expect(await applied(refused.activities)).toMatchObject({ result: 'refused', refusal: expect.stringContaining('spec.replicas: Invalid value') });
    const forbidden = cluster();
    forbidden.objects.failNext('apply', kubeStatusError(403, 'Forbidden'), 'deployments');
    await expect(applied(forbidden.activities)).rejects.toMatchObject({ type: 'KubeForbidden', nonRetryable: true });
  });

  it("a provider whose CRD is not installed: crd-missing, no provider resource written (only the deployment's status)", async () => {
    const { activities, objects } = cluster((spec) => ({ ...spec, provider: { name: 'kaito' } }), kaitoProvider, async () => undefined);
    expect(await applied(activities)).toMatchObject({ result: 'crd-missing' });
    expect(objects.calls.filter((c) => c.startsWith('apply'))).toEqual(['applyStatus modeldeployments/tiny-llama']);
  });

  it('an incompatible spec is Failed with a ProviderError event, nothing applied', async () => {
    const { activities, recorder, objects } = cluster((spec) => ({ ...spec, serving: { mode: 'disaggregated' } }));
    const outcome = await runActivity(activities.reconcileResource, ref);
    expect(outcome).toMatchObject({ compatibility: { compatible: false }, apply: undefined, observed: { phase: 'Failed' } });
    expect(recorder.reasons()).toEqual(['ProviderError']);
    expect(objects.at(deploymentAt())).toBeUndefined();
  });

  it('Terminating, nothing applied, for a deployment gone', async () => {
    const { activities, objects } = cluster();
    expect(await runActivity(activities.reconcileResource, { ...ref, uid: 'u-2' })).toEqual({
      compatibility: { compatible: true, errors: [], warnings: [] },
      apply: { result: 'unchanged', resource: undefined, identityChanges: [], warnings: [] },
      observed: { phase: 'Terminating', message: undefined, ready: false },
    });
    expect(objects.at(deploymentAt())).toBeUndefined();
  });
});

describe('cleanupResources', () => {
  it('deletes what the provider made for the deployment; one held by a finalizer remains', async () => {
    const { activities, objects } = cluster();
    await applied(activities);
    expect(await runActivity(activities.cleanupResources, ref)).toEqual({ gone: true, remaining: [] });
    expect(objects.at(deploymentAt())).toBeUndefined();
    await applied(activities);
    const stored = objects.at(deploymentAt())!;
    objects.put(deploymentAt(), { ...stored, metadata: { ...stored.metadata, finalizers: ['example.com/hold'] } });
    expect(await runActivity(activities.cleanupResources, ref)).toEqual({ gone: false, remaining: ['Deployment team-a/tiny-llama'] });
  });
});
