// KybernateWorkload (seed 003 §3.3, issue 13 item 5) end to end on the real stack, with the activator
// in front: the pod-readiness simulator plays the kubelet (it reports the pod at 127.0.0.1, where a
// loopback server plays the workload's container). The workload runs, idles (3s), is suspended: its
// KybernateCheckpoint fails here — the simulated pod is on no node, so there is nothing to dump; on a
// real node without a CRIU that works on its kernel it fails the same way — and the suspend falls back
// to a cold scale-to-zero (SuspendDegraded, pod deleted). A request through the activator then wakes it
// and is held until it runs, then answered by the container. A workload that never runs has its
// request answered 503 after queueTimeout. Deleting the workload removes its pod and checkpoints.
// And the checkpointed cycle, with a stand-in node worker (the dump itself is the containerd tests'
// business) and the test as the kubelet of a node: Completed checkpoint, suspendedCheckpoints 1, the
// wake's pod annotated kybernate.io/restore-from, and the image deleted on the node with the workload.
// A pod the API server refuses (an unknown RuntimeClass) shows in status (Failed, the refusal), and the
// workload runs once its spec is fixed.
import type { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYBERNATE_API_VERSION, nodeTaskQueue, RESTORE_FROM_ANNOTATION, SUSPEND_DEGRADED_CONDITION, WORKLOAD_KIND, WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import type { NodeActivities } from '../../contract/kybernate-activities.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import type { Product } from '../../worker/product.ts';
import { startTestProduct } from '../support/controller.ts';
import { localSimulators } from '../../devstack/simulators/start.ts';
import { eventually, stackInfo, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import {
  createWorkload,
  deleteWorkload,
  getPod,
  getWorkload,
  httpCall,
  nodeKubelet,
  recordPhases,
  startFakeContainer,
  waitForWorkload,
  workloadCheckpoints,
  workloadCondition,
  workloadPods,
  type FakeContainer,
} from '../support/kybernate-workload.ts';

describe('KybernateWorkload on the real stack, behind the activator', () => {
  let kube: TestKube;
  let product: Product;
  let activator: { url: string };
  const taskQueuePrefix = uniqueName('kwl');
  let client: Client;
  let closeClient: () => Promise<void>;
  let container: FakeContainer;

  beforeAll(async () => {
    kube = await testKube('kyb-workload');
    // The product as `run --activator-port` composes it (worker/product.ts): the activator shares the
    // controller's informers and client; the simulated kubelet runs the workloads' pods.
    product = await startTestProduct(kube.namespace, taskQueuePrefix, { simulators: localSimulators(1_000) });
    activator = { url: product.served.activator! };
    container = await startFakeContainer();
    const t = await temporalClient();
    client = t.client;
    closeClient = () => t.connection.close();
  });

  afterAll(async () => {
    await container?.close();
    await product?.stop();
    await closeClient?.();
    await kube?.cleanup();
  });

  it('runs, suspends when idle (cold fallback: the checkpoint fails here), wakes on a held request, and goes with its pod and checkpoints on deletion', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl');
    const created = await createWorkload(ns, name, { port: container.port, idleTimeout: '3s', queueTimeout: '10s' });
    const uid = created.metadata.uid!;
    const url = (path: string) => `${activator.url}/${ns}/${name}${path}`;

    // Running: its own pod, owned and labelled, started fresh.
    const running = await waitForWorkload(ns, name, 'Running', (w) => w.status?.phase === 'Running');
    expect(running.status).toMatchObject({ activeReplicas: 1, suspendedCheckpoints: 0, podName: name, message: `Pod ${name} is running` });
    expect(workloadCondition(running, 'Ready')).toMatchObject({ status: 'True', reason: 'Running' });
    expect(workloadCondition(running, SUSPEND_DEGRADED_CONDITION)).toMatchObject({ status: 'False' });
    const first = (await getPod(ns, name))!;
    expect(first.metadata?.labels).toMatchObject({ [WORKLOAD_LABEL]: name, app: name });
    expect(first.metadata?.ownerReferences).toEqual([{ apiVersion: KYBERNATE_API_VERSION, kind: WORKLOAD_KIND, name, uid, controller: true, blockOwnerDeletion: true }]);
    expect(first.metadata?.annotations?.[RESTORE_FROM_ANNOTATION]).toBeUndefined();

    // A request while it runs goes straight to the container; the workload's health path is the activator's.
    const direct = await httpCall(url('/v1/models?x=1'));
    expect(direct.status).toBe(200);
    expect(JSON.parse(direct.body)).toEqual({ served: '/v1/models?x=1', method: 'GET', body: '' });
    const healthy = await httpCall(url('/health'));
    expect(healthy.status).toBe(200);
    expect(JSON.parse(healthy.body)).toEqual({ workload: `${ns}/${name}`, phase: 'Running', activator: 'ok' });
    expect(container.requests.map((r) => r.url)).toEqual(['/v1/models?x=1']);

    // Idle for 3s: Suspending (a checkpoint of the pod), which fails here, then Suspended by a cold scale-to-zero.
    const recorder = recordPhases(ns, name);
    const suspended = await waitForWorkload(ns, name, 'Suspended', (w) => w.status?.phase === 'Suspended', 60_000);
    await recorder.stop();
    expect(recorder.phases).toEqual(['Running', 'Suspending', 'Suspended']);
    const checkpointName = `${name}-suspend-1`;
    const checkpoints = await workloadCheckpoints(ns, name);
    expect(checkpoints.map((c) => c.metadata.name)).toEqual([checkpointName]);
    const checkpoint = checkpoints[0]!;
    expect(checkpoint.spec).toMatchObject({ podName: name, leaveRunning: false });
    expect((checkpoint.metadata as { ownerReferences?: unknown }).ownerReferences).toEqual([{ apiVersion: KYBERNATE_API_VERSION, kind: WORKLOAD_KIND, name, uid, controller: true, blockOwnerDeletion: true }]);
    expect(checkpoint.status?.phase).toBe('Failed');
    expect(checkpoint.status?.message).toBe(`Pod ${ns}/${name} has no node`);
    expect(suspended.status).toMatchObject({
      activeReplicas: 0,
      suspendedCheckpoints: 0,
      message: `Suspended while idle by a cold scale-to-zero: the next request starts pod ${name} fresh`,
    });
    expect(workloadCondition(suspended, SUSPEND_DEGRADED_CONDITION)).toMatchObject({
      status: 'True',
      reason: 'CheckpointFailed',
      message: `Checkpoint ${checkpointName} failed: Pod ${ns}/${name} has no node; suspended by a cold scale-to-zero instead (the next request starts the pod fresh)`,
    });
    expect(suspended.status?.lastActivityTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await eventually('the pod to be gone', async () => (await workloadPods(ns, name)).length === 0, 30_000);

    // The health path neither wakes it nor counts as a request.
    const asleep = await httpCall(url('/health'));
    expect(JSON.parse(asleep.body)).toMatchObject({ phase: 'Suspended' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await getWorkload(ns, name))?.status?.phase).toBe('Suspended');

    // A request wakes it: held while a fresh pod starts (Restoring), then answered by the container.
    const wakeRecorder = recordPhases(ns, name);
    const t0 = Date.now();
    const woken = await httpCall(url('/v1/chat/completions'), { method: 'POST', body: '{"prompt":"hi"}' });
    const held = Date.now() - t0;
    // The activator read Running from its cache; the recorder polls the API server: let it catch up.
    await waitForWorkload(ns, name, 'Running after the wake', (w) => w.status?.phase === 'Running');
    await wakeRecorder.stop();
    expect(woken.status).toBe(200);
    expect(JSON.parse(woken.body)).toEqual({ served: '/v1/chat/completions', method: 'POST', body: '{"prompt":"hi"}' });
    // The simulated kubelet takes a second to start the pod: the request waited for it.
    expect(held).toBeGreaterThanOrEqual(900);
    expect(held).toBeLessThan(10_000);
    expect(wakeRecorder.phases).toContain('Restoring');
    expect(wakeRecorder.phases.at(-1)).toBe('Running');
    const second = (await getPod(ns, name))!;
    expect(second.metadata?.uid).not.toBe(first.metadata?.uid);
    // After a cold fallback there is no checkpoint to restore from: the pod starts fresh.
    expect(second.metadata?.annotations?.[RESTORE_FROM_ANNOTATION]).toBeUndefined();

    // Deletion: the garbage collector removes the pod and the checkpoints (their finalizer released), the workflow ends.
    await deleteWorkload(ns, name);
    await eventually('the workload to be gone', async () => (await getWorkload(ns, name)) === undefined);
    await eventually('its pods and checkpoints to be gone', async () => (await workloadPods(ns, name)).length === 0 && (await workloadCheckpoints(ns, name)).length === 0, 90_000);
    const workflowId = workflowIdFor(WORKLOAD_KIND, { namespace: ns, name, uid });
    await eventually('the workflow to end', async () => (await client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED');
  });

  it('answers 503 naming the workload and its queueTimeout when it does not run in time, and 404 for a workload that does not exist', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl-held');
    // The simulated kubelet never starts this one's pod.
    await createWorkload(ns, name, { port: container.port, idleTimeout: '1h', queueTimeout: '2s', hold: true });
    await waitForWorkload(ns, name, 'Pending', (w) => w.status?.phase === 'Pending');
    const t0 = Date.now();
    const answer = await httpCall(`${activator.url}/${ns}/${name}/v1/models`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_900);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('2');
    expect(JSON.parse(answer.body)).toEqual({
      error: `KybernateWorkload ${ns}/${name} did not become Running within 2s (activator.queueTimeout); it is Pending. Try again later.`,
      workload: `${ns}/${name}`,
      phase: 'Pending',
      queueTimeout: '2s',
    });
    expect(container.requests.filter((r) => r.url === '/v1/models')).toEqual([]);

    const missing = await httpCall(`${activator.url}/${ns}/no-such-workload/x`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ error: `KybernateWorkload ${ns}/no-such-workload does not exist`, workload: `${ns}/no-such-workload` });
    expect((await httpCall(`${activator.url}/healthz`)).status).toBe(200);
  });
  it('shows a pod the API server refuses (unknown RuntimeClass) in status, and runs once the spec is fixed', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl-rc');
    const runtimeClass = uniqueName('no-such-class');
    const opts = { port: container.port, idleTimeout: '1h', queueTimeout: '10s' };
    await createWorkload(ns, name, { ...opts, runtimeClassName: runtimeClass });
    const failed = await waitForWorkload(ns, name, 'Failed', (w) => w.status?.phase === 'Failed');
    const message = failed.status?.message ?? '';
    // The API server's own explanation, once (not wrapped in the activity's prefix too).
    expect(message).toBe(`The API server refused pod ${name}: pods "${name}" is forbidden: pod rejected: RuntimeClass "${runtimeClass}" not found`);
    expect(failed.status).toMatchObject({ activeReplicas: 0 });
    expect(workloadCondition(failed, 'Ready')).toMatchObject({ status: 'False', reason: 'KubeForbidden', message });
    expect(await workloadPods(ns, name)).toEqual([]);

    // The spec fixed (the RuntimeClass dropped): the workload's watch runs a pass, and its pod runs.
    await createWorkload(ns, name, opts);
    const running = await waitForWorkload(ns, name, 'Running', (w) => w.status?.phase === 'Running', 30_000);
    expect(running.status).toMatchObject({ activeReplicas: 1, podName: name, message: `Pod ${name} is running` });
    expect(workloadCondition(running, 'Ready')).toMatchObject({ status: 'True', reason: 'Running' });
    await deleteWorkload(ns, name);
  });

  it('suspends through a completed checkpoint (a stand-in node worker dumps) and wakes into a pod restored from it, on its node', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl-cp');
    const node = uniqueName('node');
    const image = `containerd.io/checkpoint/${name}:20250101T120000.000Z`;
    // The node worker of that node, played here: the checkpoint workflow routes the dump to its queue.
    const dumps: Parameters<NodeActivities['checkpointContainer']>[0][] = [];
    const deletedImages: string[] = [];
    const activities: NodeActivities = {
      checkpointContainer: async (input) => (dumps.push(input), { ref: image, size: 3 * 1024 * 1024 }),
      deleteCheckpointImage: async ({ ref }) => (deletedImages.push(ref), { deleted: true }),
    };
    const connection = await NativeConnection.connect({ address: stackInfo().temporalAddress });
    const worker = await Worker.create({ connection, namespace: stackInfo().temporalNamespace, taskQueue: nodeTaskQueue(taskQueuePrefix, node), activities });
    const workerRun = worker.run();
    // Its pods are bound to that node: the test plays its kubelet (the simulator is told to hold them).
    const kubelet = nodeKubelet(ns, name);
    try {
      const created = await createWorkload(ns, name, { port: container.port, idleTimeout: '3s', queueTimeout: '15s', hold: true, nodeName: node });
      await waitForWorkload(ns, name, 'Running', (w) => w.status?.phase === 'Running');
      const first = (await getPod(ns, name))!;

      const suspended = await waitForWorkload(ns, name, 'Suspended', (w) => w.status?.phase === 'Suspended', 60_000);
      const checkpointName = `${name}-suspend-1`;
      expect(suspended.status).toMatchObject({
        suspendedCheckpoints: 1,
        activeReplicas: 0,
        message: `Suspended while idle: the next request restores pod ${name} from checkpoint ${checkpointName} (${image})`,
      });
      expect(workloadCondition(suspended, SUSPEND_DEGRADED_CONDITION)).toMatchObject({ status: 'False', reason: 'Checkpointed' });
      // One dump, of the pod's container, the task exiting with it (leaveRunning false).
      expect(dumps).toEqual([{ containerId: first.metadata!.uid!.replace(/-/g, ''), leaveRunning: false }]);
      const [checkpoint] = await workloadCheckpoints(ns, name);
      expect(checkpoint?.status).toMatchObject({ phase: 'Completed', checkpointRef: image, checkpointSize: '3Mi', nodeName: node });
      await eventually('the pod to be gone', async () => (await workloadPods(ns, name)).length === 0, 30_000);

      // The request wakes it: the new pod restores from the checkpoint, on its node; held until it runs.
      const woken = await httpCall(`${activator.url}/${ns}/${name}/generate`, { method: 'POST', body: 'x' });
      expect(woken.status).toBe(200);
      expect(JSON.parse(woken.body)).toEqual({ served: '/generate', method: 'POST', body: 'x' });
      const running = await waitForWorkload(ns, name, 'Running again', (w) => w.status?.phase === 'Running');
      expect(running.status).toMatchObject({ suspendedCheckpoints: 1, message: `Pod ${name} restored from ${image} is running` });
      const restored = (await getPod(ns, name))!;
      expect(restored.metadata?.uid).not.toBe(first.metadata?.uid);
      expect(restored.metadata?.annotations?.[RESTORE_FROM_ANNOTATION]).toBe(image);
      // The template binds the pod to its node itself, so no affinity is added.
      expect(restored.spec).toMatchObject({ nodeName: node });

      // Deletion: the checkpoint's finalizer removes its image on its node before the checkpoint goes.
      await deleteWorkload(ns, name);
      await eventually('its checkpoints to be gone', async () => (await workloadCheckpoints(ns, name)).length === 0, 90_000);
      expect(deletedImages).toEqual([image]);
      const workflowId = workflowIdFor(WORKLOAD_KIND, { namespace: ns, name, uid: created.metadata.uid! });
      await eventually('the workflow to end', async () => (await client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED');
    } finally {
      await kubelet.stop();
      worker.shutdown();
      await workerRun;
      await connection.close();
    }
  });
});
