// A ModelDeployment naming a provider whose config says it is alive (ready, a fresh heartbeat, its CRD
// reported) but whose worker never takes a call: `kubectl get md` shows a phase from the first status
// write on, one true message (not available: no worker), and its deletion does not wait for the cleanup
// deadline when the provider recorded no resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDeployment } from '../../api/types.ts';
import { kubeNow } from '../../kube/time.ts';
import { createDeployment, deleteDeployment, eventsFor, example, getDeployment, waitGone } from '../support/deployments.ts';
import { testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { registerWorkerlessProvider } from '../support/workerless-provider.ts';

/** Every distinct (provider, phase, message) the deployment shows while `until` is false, read every 100 ms. */
async function observe(namespace: string, name: string, until: (seen: ModelDeployment[]) => boolean, timeoutMs = 60_000): Promise<ModelDeployment[]> {
  const seen: ModelDeployment[] = [];
  const start = Date.now();
  while (!until(seen)) {
    if (Date.now() - start > timeoutMs) throw new Error(`not reached within ${timeoutMs / 1000} s; seen: ${JSON.stringify(seen.map((m) => m.status))}`);
    const md = await getDeployment(namespace, name);
    const shown = (m: ModelDeployment | undefined) => JSON.stringify([m?.status?.provider?.name, m?.status?.phase, m?.status?.message]);
    if (md && shown(md) !== shown(seen.at(-1))) seen.push(md);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen;
}

describe('a provider whose worker never takes the call', () => {
  let kube: TestKube;
  let ctl: TestController;
  const acme = uniqueName('acme');
  let acmeConfig: Awaited<ReturnType<typeof registerWorkerlessProvider>> | undefined;
  const unavailable = `Provider '${acme}' is not available: no worker is serving its task queue`;

  beforeAll(async () => {
    kube = await testKube('e2e-unserved');
    // TEST_SETTINGS: the provider's schedule-to-start bound is 5 s, the cleanup deadline 20 s.
    ctl = await startTestController({ namespaces: [kube.namespace] });
    acmeConfig = await registerWorkerlessProvider(acme, { ready: true, lastHeartbeat: kubeNow(), upstreamCRDVersion: `${acme}.example.com/v1` });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
    await acmeConfig?.remove();
  });

  it('shows Pending from the selection on, then says the provider is unavailable and keeps saying it; deletion does not wait for the deadline', async () => {
    const name = uniqueName('unserved');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      m.spec.provider = { name: acme };
    }));
    const seen = await observe(kube.namespace, name, (s) => s.at(-1)?.status?.message === unavailable);
    const selected = seen.filter((m) => m.status?.provider?.name === acme);
    expect(selected.length).toBeGreaterThan(0);
    for (const md of selected) expect(md.status?.phase, JSON.stringify(md.status)).toBe('Pending');
    expect(selected.map((m) => m.status?.message)).toEqual([`Waiting for provider '${acme}' to report on its resource`, unavailable]);

    // Retried passes (1 s apart, then up to 5 s) call the provider again and fail alike: same message.
    const watchedUntil = Date.now() + 15_000;
    const later = await observe(kube.namespace, name, () => Date.now() > watchedUntil);
    expect(later.map((m) => m.status?.message)).toEqual([unavailable]);

    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name);
    const reasons = (await eventsFor(kube.namespace, name)).map((e) => e.reason);
    // A wait for the provider's cleanup would say so (WaitingForCleanup) and end with FinalizerTimeout.
    expect(reasons).not.toContain('WaitingForCleanup');
    expect(reasons).not.toContain('FinalizerTimeout');
  });
});
