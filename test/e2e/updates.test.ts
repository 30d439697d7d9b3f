// Keeping a running deployment in line with its spec: drift restored, pause honoured, config changes
// applied in place, identity changes recreating the provider resource (seed 001 §4.6, §4.11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { condition, deleteDeployment, eventsFor, getObject, patchDeployment, runningDeployment, UPSTREAM, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';

const dgd = (namespace: string, name: string) => ({ ...UPSTREAM.dgd, namespace, name });
// nvidia.com/v1beta1: components are a list keyed by name; a JSON merge patch replaces the whole list.
type Component = { name: string; type?: string; replicas?: number };
type Dgd = { metadata?: { uid?: string }; spec?: { components?: Component[] } };
const withReplicas = (obj: Dgd, pick: (c: Component) => boolean, replicas: number) => ({
  spec: { components: obj.spec!.components!.map((c) => (pick(c) ? { ...c, replicas } : c)) },
});
const isWorker = (c: Component) => c.type !== 'frontend';

describe.concurrent('updates, drift and pause', () => {
  let kube: TestKube;
  let ctl: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-upd');
    ctl = await startTestController({ namespaces: [kube.namespace] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  const running = async (prefix: string) => (await runningDeployment(kube.namespace, prefix)).metadata.name!;
  const workerReplicas = (obj: Dgd | undefined) => obj?.spec?.components?.find(isWorker)?.replicas;

  it('restores a provider resource edited directly and records DriftDetected', async () => {
    const name = await running('drift');
    const before = (await getObject(dgd(kube.namespace, name))) as Dgd;
    const original = workerReplicas(before);
    expect(original).toBe(1);
    await new CustomObjects(kubeConfig()).mergePatch(dgd(kube.namespace, name), withReplicas(before, isWorker, 7));
    await eventually('the edit to be reverted', async () => workerReplicas((await getObject(dgd(kube.namespace, name))) as Dgd) === original);
    const drift = await eventually('DriftDetected event', async () => (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'DriftDetected'));
    expect(drift).toMatchObject({ type: 'Warning', message: 'Provider resource was modified directly, reconciling' });
  });

  it('applies a config-field change in place (same provider resource)', async () => {
    const name = await running('config');
    const before = (await getObject(dgd(kube.namespace, name))) as Dgd;
    await patchDeployment(kube.namespace, name, { spec: { scaling: { replicas: 3 } } });
    await eventually('replicas to reach the provider resource', async () => workerReplicas((await getObject(dgd(kube.namespace, name))) as Dgd) === 3);
    const after = (await getObject(dgd(kube.namespace, name))) as Dgd;
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
    // The operator rolls the change out and reports all three ready. (Until it has seen the change, its
    // status still says what it said for generation 1, and the deployment reports exactly that.)
    const md = await waitForDeployment(kube.namespace, name, 'generation 2 running with 3 ready', (m) => m.status?.observedGeneration === 2 && m.status?.phase === 'Running' && m.status?.replicas?.ready === 3);
    expect(md.status?.replicas?.desired).toBe(3);
    expect((await eventsFor(kube.namespace, name)).map((e) => e.reason)).not.toContain('RecreatingResource');
  });

  it('deletes and recreates the provider resource when an identity field changes, with a warning', async () => {
    const name = await running('identity');
    const before = (await getObject(dgd(kube.namespace, name))) as Dgd;
    await patchDeployment(kube.namespace, name, { spec: { model: { id: 'meta-llama/Llama-3.2-3B-Instruct' } } });
    const recreated = await eventually('a new provider resource', async () => {
      const obj = (await getObject(dgd(kube.namespace, name))) as Dgd | undefined;
      return obj && obj.metadata?.uid !== before.metadata?.uid ? obj : undefined;
    });
    expect(JSON.stringify(recreated.spec)).toContain('meta-llama/Llama-3.2-3B-Instruct');
    await waitForDeployment(kube.namespace, name, 'Running again', (m) => m.status?.phase === 'Running' && m.status?.observedGeneration === 2);
    const warning = (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'RecreatingResource');
    expect(warning?.type).toBe('Warning');
    expect(warning?.message).toContain('model.id');
  });

  it('changes nothing while paused, says so in a condition, and catches up on resume', async () => {
    const name = await running('pause');
    await patchDeployment(kube.namespace, name, { metadata: { annotations: { [PAUSE_ANNOTATION]: 'true' } } });
    const paused = await waitForDeployment(kube.namespace, name, 'paused condition', (m) => condition(m, 'ReconcilePaused')?.status === 'True');
    expect(condition(paused, 'ReconcilePaused')?.message).toContain(PAUSE_ANNOTATION);
    // Pausing changes nothing else: the other conditions stay as they were.
    expect(condition(paused, 'Validated')?.status).toBe('True');
    expect(condition(paused, 'ProviderSelected')?.status).toBe('True');
    expect(condition(paused, 'Ready')?.status).toBe('True');
    const before = (await getObject(dgd(kube.namespace, name))) as Dgd;

    await patchDeployment(kube.namespace, name, { spec: { scaling: { replicas: 4 } } });
    await new CustomObjects(kubeConfig()).mergePatch(dgd(kube.namespace, name), withReplicas(before, (c) => c.type === 'frontend', 5));
    await new Promise((r) => setTimeout(r, 3_000));
    const during = (await getObject(dgd(kube.namespace, name))) as Dgd;
    expect(workerReplicas(during)).toBe(workerReplicas(before));
    expect(during.spec?.components?.find((c) => c.type === 'frontend')?.replicas).toBe(5);

    await patchDeployment(kube.namespace, name, { metadata: { annotations: { [PAUSE_ANNOTATION]: null } } });
    await eventually('the spec change after resume', async () => workerReplicas((await getObject(dgd(kube.namespace, name))) as Dgd) === 4);
    await waitForDeployment(kube.namespace, name, 'pause condition cleared', (m) => condition(m, 'ReconcilePaused') === undefined);
  });

  it('still deletes a paused deployment', async () => {
    const name = await running('paused-delete');
    await patchDeployment(kube.namespace, name, { metadata: { annotations: { [PAUSE_ANNOTATION]: 'true' } } });
    await waitForDeployment(kube.namespace, name, 'paused condition', (m) => condition(m, 'ReconcilePaused')?.status === 'True');
    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name);
    await eventually('provider resource gone', async () => (await getObject(dgd(kube.namespace, name))) === undefined);
  });
});
