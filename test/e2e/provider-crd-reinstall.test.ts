// A deployment waiting for its provider's CRD proceeds as soon as the CRD is installed again. The core
// learns whether a provider's CRD is installed from the provider's registration only
// (InferenceProviderConfig `status.upstreamCRDVersion`). Here the registration's heartbeat and periodic
// CRD check are an hour apart and the resync period is long, so the only thing that can tell the core
// is the registration's watch of the CRD: were the status refreshed on the timer alone, the watcher's
// "CRD changed" wake-up would re-run validation on the stale status and the deployment would stay waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIGS } from '../../api/constants.ts';
import type { InferenceProviderConfig, ModelDeployment } from '../../api/types.ts';
import { installCrds } from '../../devstack/crds.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { CRDS } from '../../providers/crd-version.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { condition, createDeployment, deleteDeployment, getObject, patchDeployment, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { thirdPartyProvider } from '../support/third-party-provider.ts';

const HOUR_MS = 3_600_000;

describe('a provider CRD removed and installed again', () => {
  const widget = thirdPartyProvider(`reinstall-${uniqueName('c').slice(2)}`);
  const installedVersion = `${widget.resource.group}/v1`;
  const name = 'waits-for-crd';
  let kube: TestKube;
  let ctl: TestController | undefined;
  const objects = () => new CustomObjects(kube.kc);
  const reported = async () => ((await objects().get({ ...PROVIDER_CONFIGS, name: widget.provider.name })) as unknown as InferenceProviderConfig | undefined)?.status?.upstreamCRDVersion;

  beforeAll(async () => {
    kube = await testKube('e2e-crd-reinstall');
    await installCrds(kube.kc, [widget.crd]);
    ctl = await startTestController({
      namespaces: [kube.namespace],
      providers: [widget.provider],
      simulators: false,
      settings: { resyncPeriod: '10m' },
      heartbeatMs: HOUR_MS,
      providerCrdCheckMs: HOUR_MS,
    });
    // Registration reads the CRD once at start.
    await eventually('the provider to report its CRD at start', async () => (await reported()) === installedVersion);
  });

  afterAll(async () => {
    await ctl?.stop();
    // The finalizer would hold the namespace with no controller left to remove it.
    for (const md of [name, 'ready-then-crd-gone', 'crd-gone-while-down']) await patchDeployment(kube.namespace, md, { metadata: { finalizers: null } }).catch(() => undefined);
    await objects().delete({ ...CRDS, name: widget.crdName }).catch(() => undefined);
    await objects().delete({ ...PROVIDER_CONFIGS, name: widget.provider.name }).catch(() => undefined);
    await kube?.cleanup();
  });

  it('reports the CRD gone and back at once, and the waiting deployment proceeds by itself', async () => {
    await objects().delete({ ...CRDS, name: widget.crdName });
    await eventually('the CRD to be gone', async () => (await objects().get({ ...CRDS, name: widget.crdName })) === undefined);
    // No timer fires within the test: only the registration's watch of the CRD can report it.
    await eventually('the provider to report its CRD missing', async () => (await reported()) === '');

    await createDeployment({
      apiVersion: API_VERSION,
      kind: MODEL_DEPLOYMENT_KIND,
      metadata: { name, namespace: kube.namespace },
      spec: { model: { id: 'acme/widget-7b', source: 'huggingface' }, engine: { type: 'vllm' }, provider: { name: widget.provider.name }, resources: { gpu: { count: 1 } } },
    } as ModelDeployment);
    const message = `Provider '${widget.provider.name}' CRD not installed in cluster`;
    // Blocked in validation, on the provider config's status.
    const waiting = await waitForDeployment(kube.namespace, name, 'waiting for the CRD', (m) => m.status?.phase === 'Pending' && m.status.message === message && condition(m, 'Validated')?.status === 'False');
    expect(condition(waiting, 'Validated')?.message).toBe(message);

    await installCrds(kube.kc, [widget.crd]);
    await eventually('the provider to report its CRD again', async () => (await reported()) === installedVersion);
    const proceeding = await waitForDeployment(kube.namespace, name, 'past validation with its resource created', (m) => condition(m, 'Validated')?.status === 'True' && condition(m, 'ResourceCreated')?.status === 'True');
    expect(proceeding.status?.phase).toBe('Deploying');
    expect(proceeding.status?.provider?.name).toBe(widget.provider.name);
    const resource = await getObject({ ...widget.resource, namespace: kube.namespace, name });
    expect(resource?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ModelDeployment', name });

    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name);
  });

  /** A widget deployment whose resource its "operator" (this test) reports ready: Running 1/1. */
  async function runningWidget(name: string): Promise<ModelDeployment> {
    await createDeployment({
      apiVersion: API_VERSION,
      kind: MODEL_DEPLOYMENT_KIND,
      metadata: { name, namespace: kube.namespace },
      spec: { model: { id: 'acme/widget-7b', source: 'huggingface' }, engine: { type: 'vllm' }, provider: { name: widget.provider.name }, resources: { gpu: { count: 1 } } },
    } as ModelDeployment);
    await waitForDeployment(kube.namespace, name, 'its resource created', (m) => condition(m, 'ResourceCreated')?.status === 'True');
    await objects().mergePatchStatus({ ...widget.resource, namespace: kube.namespace, name }, { status: { ready: true } });
    return waitForDeployment(kube.namespace, name, 'Running 1/1', (m) => m.status?.phase === 'Running' && m.status.replicas?.ready === 1);
  }

  it('a Running deployment whose CRD is removed shows none of its replicas ready while it waits', async () => {
    const running = 'ready-then-crd-gone';
    const ready = await runningWidget(running);
    expect(ready.status?.replicas).toMatchObject({ desired: 1, ready: 1 });

    await objects().delete({ ...CRDS, name: widget.crdName });
    const message = `Provider '${widget.provider.name}' CRD not installed in cluster`;
    const waiting = await waitForDeployment(kube.namespace, running, 'Pending on the missing CRD, none ready', (m) => m.status?.phase === 'Pending' && m.status.message === message && m.status.replicas?.ready === 0);
    expect(waiting.status?.replicas).toMatchObject({ desired: 1, ready: 0 });
    expect(waiting.status?.replicas?.available ?? 0).toBe(0);
    // Nothing claims a resource any more (whichever of the core or the provider noticed first).
    const claims = await waitForDeployment(kube.namespace, running, 'ResourceCreated=False', (m) => condition(m, 'ResourceCreated')?.status === 'False');
    expect(condition(claims, 'ResourceCreated')).toMatchObject({ reason: 'CRDNotInstalled', message });
    expect(condition(claims, 'Ready')?.status).not.toBe('True');

    // Back as it was, so the deletion's cleanup can list the provider's kind.
    await installCrds(kube.kc, [widget.crd]);
    await waitForDeployment(kube.namespace, running, 'its resource created again', (m) => condition(m, 'ResourceCreated')?.status === 'True');
    await deleteDeployment(kube.namespace, running);
    await waitGone(kube.namespace, running);
  });

  it('the same when the core finds the CRD gone before the provider is called (removed while the controller was down)', async () => {
    const held = 'crd-gone-while-down';
    await runningWidget(held);

    // Down while the CRD goes: on restart the provider reports it missing and validation stops every
    // pass before the provider's call, so only the core can correct the counts the provider last wrote.
    const taskQueuePrefix = ctl!.taskQueuePrefix;
    await ctl!.stop();
    ctl = undefined;
    await objects().delete({ ...CRDS, name: widget.crdName });
    await eventually('the CRD to be gone', async () => (await objects().get({ ...CRDS, name: widget.crdName })) === undefined);
    ctl = await startTestController({
      namespaces: [kube.namespace],
      providers: [widget.provider],
      simulators: false,
      settings: { resyncPeriod: '10m' },
      heartbeatMs: HOUR_MS,
      providerCrdCheckMs: HOUR_MS,
      taskQueuePrefix,
    });
    const message = `Provider '${widget.provider.name}' CRD not installed in cluster`;
    const waiting = await waitForDeployment(kube.namespace, held, 'Pending on the missing CRD, none ready', (m) => m.status?.phase === 'Pending' && m.status.message === message && m.status.replicas?.ready === 0);
    expect(condition(waiting, 'Validated')?.message).toBe(message);
    expect(waiting.status?.replicas).toMatchObject({ desired: 1, ready: 0 });
    // The provider's conditions said True before the restart; only the core can say otherwise now.
    for (const type of ['ResourceCreated', 'Ready']) expect(condition(waiting, type), type).toMatchObject({ status: 'False', reason: 'CRDNotInstalled', message });
    expect(waiting.status?.phase).toBe('Pending');

    await installCrds(kube.kc, [widget.crd]);
    const back = await waitForDeployment(kube.namespace, held, 'its resource created again', (m) => condition(m, 'Validated')?.status === 'True' && condition(m, 'ResourceCreated')?.status === 'True');
    // The provider's own again: its apply takes back what the core's patch wrote.
    expect(condition(back, 'ResourceCreated')?.reason).toBe('ResourceCreated');
    expect(condition(back, 'Ready')?.reason).not.toBe('CRDNotInstalled');
    await deleteDeployment(kube.namespace, held);
    await waitGone(kube.namespace, held);
  });
});
