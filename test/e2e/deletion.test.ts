// Deletion is bounded (seed 001 §4.7): whatever happens to the provider, the finalizer is released at
// the deadline with a FinalizerTimeout event naming what may be orphaned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoProvider } from '../../providers/index.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { deleteDeployment, eventsFor, getDeployment as getDeploymentObject, getObject, patchDeployment, phaseIs, runningDeployment, UPSTREAM, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';

const CLEANUP_TIMEOUT_MS = 6_000;

describe('bounded deletion', () => {
  let kube: TestKube;
  let core: TestController;
  let provider: TestController | undefined;
  beforeAll(async () => {
    kube = await testKube('e2e-del');
    // The core and the provider run as separate controllers so the provider can be stopped alone.
    core = await startTestController({ namespaces: [kube.namespace], providers: [], settings: { cleanupTimeout: `${CLEANUP_TIMEOUT_MS / 1000}s` } });
    provider = await startTestController({ namespaces: [], core: false, watcher: false, simulators: false, providers: [dynamoProvider], taskQueuePrefix: core.taskQueuePrefix });
  });
  afterAll(async () => {
    await provider?.stop();
    await core?.stop();
    await kube?.cleanup();
  });

  const running = async (prefix: string) => (await runningDeployment(kube.namespace, prefix)).metadata.name!;

  it("never touches another controller's finalizer", async () => {
    const md = await runningDeployment(kube.namespace, 'shared', (m) => (m.metadata.finalizers = ['example.com/other']));
    const name = md.metadata.name!;
    expect(md.metadata.finalizers).toEqual(['example.com/other', 'kubeairunway.ai/finalizer']);
    await deleteDeployment(kube.namespace, name);
    const released = await eventually('our finalizer released', async () => {
      const live = await getDeploymentObject(kube.namespace, name);
      return live?.metadata.finalizers?.includes('kubeairunway.ai/finalizer') === false ? live : undefined;
    });
    expect(released.metadata.finalizers).toEqual(['example.com/other']);
    expect(released.metadata.deletionTimestamp).toBeTruthy();
    await patchDeployment(kube.namespace, name, { metadata: { finalizers: null } });
    await waitGone(kube.namespace, name);
  });

  it('releases the finalizer at the deadline when the upstream resource is stuck in its own finalizer', async () => {
    const name = await running('stuck');
    const ref = { ...UPSTREAM.dgd, namespace: kube.namespace, name };
    const objects = new CustomObjects(kubeConfig());
    await objects.mergePatch(ref, { metadata: { finalizers: ['example.com/operator-hold'] } });
    const started = Date.now();
    await deleteDeployment(kube.namespace, name);
    // While it waits, the deployment says so: the seed's Terminating phase and one event.
    const waiting = await waitForDeployment(kube.namespace, name, 'Terminating', phaseIs('Terminating'));
    expect(waiting.status?.message).toMatch(new RegExp(`^Waiting for provider 'dynamo' to delete DynamoGraphDeployment ${kube.namespace}/${name} \\(at most until \\S+, then the finalizer is removed anyway\\)$`));
    expect((await eventsFor(kube.namespace, name)).find((e) => e.reason === 'WaitingForCleanup')).toMatchObject({ type: 'Normal', message: waiting.status?.message });
    await waitGone(kube.namespace, name, 60_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CLEANUP_TIMEOUT_MS - 1_000);
    const timeout = (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'FinalizerTimeout');
    expect(timeout).toMatchObject({ type: 'Warning' });
    expect(timeout?.message).toBe(`Finalizer removed after timeout, provider resource may be orphaned: DynamoGraphDeployment ${kube.namespace}/${name}`);
    const stuck = await getObject(ref);
    expect(stuck?.metadata?.deletionTimestamp).toBeTruthy();
    await objects.mergePatch(ref, { metadata: { finalizers: null } });
  });

  it('releases the finalizer at the deadline when the provider worker is gone', async () => {
    const name = await running('noworker');
    await provider!.stop();
    provider = undefined;
    const started = Date.now();
    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name, 60_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CLEANUP_TIMEOUT_MS - 1_000);
    const timeout = (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'FinalizerTimeout');
    expect(timeout?.message).toContain(`DynamoGraphDeployment ${kube.namespace}/${name}`);
    // The owner reference still lets the garbage collector remove what the provider could not.
    await eventually('garbage collection of the provider resource', async () => (await getObject({ ...UPSTREAM.dgd, namespace: kube.namespace, name })) === undefined, 90_000);
  });

});
