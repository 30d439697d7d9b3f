// Kybernate on a node whose CRIU works (issue 28): the Kybernate node container (trixie's containerd,
// runc and CRIU 4 on the private Docker engine) with this node's worker beside it in the product, and the
// test as the node's scheduler and kubelet (test/support/node-kubelet.ts: real busybox counters in the
// node's containerd; a pod annotated kybernate.io/restore-from gets its task restored from that image, as
// Kybernate's restoring shim would). A counter's count lives in its root file system, so a restored task
// that goes on from the dumped count, rather than starting again at 1, proves its memory came back.
// - KybernateCheckpoint (leaveRunning: false) → KybernateRestore: the task comes back with its count.
// - KybernateWorkload: idles, suspends through a real checkpoint (not the cold fallback), and a request
//   through the activator wakes it into a pod restored from that image, count intact. The activator's
//   requests are answered by a loopback server (the counter serves no HTTP).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTORE_FROM_ANNOTATION, SUSPEND_DEGRADED_CONDITION } from '../../api/kybernate/constants.ts';
import { ContainerdClient } from '../../containerd/client.ts';
import { KUBERNETES_NAMESPACE } from '../../containerd/container-id.ts';
import type { Containerd } from '../../devstack/containerd.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import type { Product } from '../../worker/product.ts';
import { startTestProduct } from '../support/controller.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { checkpointExample, createCheckpoint, finished, waitForCheckpoint } from '../support/kybernate.ts';
import { createRestore, waitForRestore } from '../support/kybernate-restore.ts';
import { createWorkload, deleteWorkload, getPod, httpCall, startFakeContainer, waitForWorkload, workloadCheckpoints, workloadCondition, workloadPods, type FakeContainer } from '../support/kybernate-workload.ts';
import { realNodeKubelet, type NodeKubelet } from '../support/node-kubelet.ts';
import { NODE_RUNTIMES } from '../support/node-runtimes.ts';

const runtime = NODE_RUNTIMES.find((r) => r.label === 'the Kybernate node container')!;
const RUNS_DIR = join(tmpdir(), 'kubeairunway-containerd');
const say = (line: string) => process.stdout.write(`[kybernate-node] ${line}\n`);

function countIn(rootfs: string): number {
  try {
    return Number(readFileSync(join(rootfs, 'tmp', 'count'), 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/**
 * Watches a counter's file from now until it reaches `atLeast`: the lowest and highest counts seen. A
 * task that started again would show a count below the dumped one (1, 2, ...) on its way up.
 */
async function watchCount(rootfs: string, atLeast: number, timeoutMs = 30_000): Promise<{ lowest: number; highest: number }> {
  let lowest = Number.POSITIVE_INFINITY;
  let highest = 0;
  const deadline = Date.now() + timeoutMs;
  while (highest < atLeast) {
    if (Date.now() > deadline) throw new Error(`count in ${rootfs} did not reach ${atLeast} within ${timeoutMs / 1000}s (lowest ${lowest}, highest ${highest})`);
    const n = countIn(rootfs);
    if (n > 0) [lowest, highest] = [Math.min(lowest, n), Math.max(highest, n)];
    await new Promise((r) => setTimeout(r, 50));
  }
  return { lowest, highest };
}

describe.skipIf(runtime.unavailable !== undefined)(`Kybernate on a node with a working CRIU${runtime.unavailable ? ` (skipped: ${runtime.unavailable})` : ''}`, () => {
  let dir: string;
  let ctd: Containerd;
  let client: ContainerdClient;
  let kube: TestKube;
  let product: Product;
  let kubelet: NodeKubelet;
  let fake: FakeContainer;
  const node = uniqueName('node');

  beforeAll(async () => {
    mkdirSync(RUNS_DIR, { recursive: true });
    dir = mkdtempSync(join(RUNS_DIR, 'kybernate-node-'));
    ctd = await runtime.start(dir, say);
    client = new ContainerdClient({ socket: ctd.socket, namespace: KUBERNETES_NAMESPACE });
    say(`containerd ${(await client.version()).version}; CRIU ${runtime.criu.version}`);
    kube = await testKube('kyb-node');
    fake = await startFakeContainer();
    // The product as `run --node --activator-port` composes it: no simulators, the test is the kubelet.
    product = await startTestProduct(kube.namespace, uniqueName('kno'), { flags: { node: true, nodeName: node, containerdSocket: ctd.socket } });
    kubelet = realNodeKubelet({ namespace: kube.namespace, node, client, containerd: ctd, dir });
  }, 20 * 60_000);

  afterAll(async () => {
    await kubelet?.stop();
    await product?.stop();
    await fake?.close();
    await kube?.cleanup();
    client?.close();
    await ctd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('a KybernateCheckpoint (leaveRunning: false) dumps a running counter, and a KybernateRestore brings the task back with its count', async () => {
    const ns = kube.namespace;
    const pod = uniqueName('counter');
    await new CustomObjects(kubeConfig()).apply(
      { group: '', version: 'v1', plural: 'pods', namespace: ns, name: pod },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod, namespace: ns }, spec: { nodeName: node, containers: [{ name: 'counter', image: 'busybox:local' }] } },
      'kybernate-node-e2e',
    );
    const rootfs = await eventually('the kubelet to start the counter', async () => kubelet.rootfs.get(pod), 30_000);
    const original = kubelet.containers.get(pod)!;
    await watchCount(rootfs, 3);

    const cpName = uniqueName('kcp');
    const spec = checkpointExample(ns, cpName, pod, 'counter');
    spec.spec.leaveRunning = false;
    await createCheckpoint(spec);
    const cp = await waitForCheckpoint(ns, cpName, 'Completed or Failed', finished, 120_000);
    expect(cp.status).toMatchObject({ phase: 'Completed', nodeName: node, containerID: original });
    const ref = cp.status!.checkpointRef!;
    expect(ref).toMatch(new RegExp(`^containerd\\.io/checkpoint/${original}:\\d{8}T\\d{6}\\.\\d{3}Z$`));
    expect(await client.getCheckpoint(ref)).toBeDefined();
    // The dump stopped the task (runc's exit): its count holds where it was dumped.
    expect((await client.findTask(original))?.status).toBe('STOPPED');
    const atDump = countIn(rootfs);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(countIn(rootfs)).toBe(atDump);
    say(`checkpoint ${ref} (${cp.status!.checkpointSize}) at count ${atDump}`);
    // The original container goes, as its pod would on a node that stops it.
    await client.removeContainer(original);

    const restoreName = uniqueName('krs');
    const restoredPod = `${restoreName}-restored`;
    await createRestore(ns, restoreName, { checkpointRef: cpName });
    const restore = await waitForRestore(ns, restoreName, 'Running', (r) => r.status?.phase === 'Running' || r.status?.phase === 'Failed', 120_000);
    expect(restore.status).toMatchObject({ phase: 'Running', restoredPodName: restoredPod });
    expect(kubelet.log).toContain(`restored ${restoredPod} from ${ref}`);
    const restoredId = kubelet.containers.get(restoredPod)!;
    expect(await client.findTask(restoredId)).toMatchObject({ status: 'RUNNING' });
    // Its memory came back: it counts on from the dumped count, never from 1 again.
    const seen = await watchCount(rootfs, atDump + 2);
    expect(seen.lowest).toBeGreaterThanOrEqual(atDump);
    say(`restored into ${restoredPod}: count ${atDump} → ${seen.highest} (lowest seen ${seen.lowest})`);
  });

  it('a KybernateWorkload suspends through a real checkpoint when idle and wakes, on a request, into a pod restored from it with its count', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl');
    await createWorkload(ns, name, { port: fake.port, idleTimeout: '4s', queueTimeout: '60s', hold: true, nodeName: node });
    await waitForWorkload(ns, name, 'Running', (w) => w.status?.phase === 'Running', 60_000);
    const rootfs = await eventually('the kubelet to start the workload pod', async () => kubelet.rootfs.get(name), 30_000);
    const first = kubelet.containers.get(name)!;

    const suspended = await waitForWorkload(ns, name, 'Suspended', (w) => w.status?.phase === 'Suspended', 90_000);
    const [checkpoint] = await workloadCheckpoints(ns, name);
    expect(checkpoint?.status).toMatchObject({ phase: 'Completed', nodeName: node, containerID: first });
    const ref = checkpoint!.status!.checkpointRef!;
    expect(suspended.status).toMatchObject({ suspendedCheckpoints: 1, activeReplicas: 0 });
    expect(suspended.status?.message).toBe(`Suspended while idle: the next request restores pod ${name} from checkpoint ${checkpoint!.metadata.name} (${ref})`);
    expect(workloadCondition(suspended, SUSPEND_DEGRADED_CONDITION)).toMatchObject({ status: 'False', reason: 'Checkpointed' });
    expect(await client.getCheckpoint(ref)).toBeDefined();
    await eventually('the pod to be gone', async () => (await workloadPods(ns, name)).length === 0, 30_000);
    await eventually('its container to be removed', async () => (await client.findTask(first)) === undefined, 30_000);
    const atSuspend = countIn(rootfs);
    say(`workload suspended through ${ref} (${checkpoint!.status!.checkpointSize}) at count ${atSuspend}`);

    const woken = await httpCall(`${product.served.activator!}/${ns}/${name}/generate`, { method: 'POST', body: 'x' });
    expect(woken.status).toBe(200);
    const running = await waitForWorkload(ns, name, 'Running again', (w) => w.status?.phase === 'Running', 60_000);
    expect(running.status?.message).toBe(`Pod ${name} restored from ${ref} is running`);
    expect((await getPod(ns, name))?.metadata?.annotations?.[RESTORE_FROM_ANNOTATION]).toBe(ref);
    expect(kubelet.log).toContain(`restored ${name} from ${ref}`);
    const seen = await watchCount(rootfs, atSuspend + 2);
    expect(seen.lowest).toBeGreaterThanOrEqual(atSuspend);
    say(`workload woken restored: count ${atSuspend} → ${seen.highest} (lowest seen ${seen.lowest})`);

    await deleteWorkload(ns, name);
    await eventually('its checkpoints to be gone', async () => (await workloadCheckpoints(ns, name)).length === 0, 90_000);
    expect(await client.getCheckpoint(ref)).toBeUndefined();
  });
});
