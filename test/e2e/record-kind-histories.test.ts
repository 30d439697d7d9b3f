// The sibling of record-histories.test.ts for the other kinds' workflows: real histories of each one's
// main path on the local stack, checked to replay on the current code. With
// KUBEAIRUNWAY_RECORD_HISTORIES=<label> they are written to workflows/__histories__/<label>-<kind>-<scenario>.json
// for the replay test; keep older labels: they are what running objects of older versions hold.
//   FlameCluster: create → Running → scale 2 → 3 → delete (the garbage collector takes the children).
//   AsyncActor: standalone create (queues, Deployment, ScaledObject; Creating/Running) → delete (finalizer).
//   KybernateCheckpoint: PodNotFound → delete; a dump CRIU refuses (the stand-in node worker fails it as
//     containerd's runc does, ContainerdCheckpointFailed) → Failed → delete; a dump that completes → delete,
//     its image removed on the node before the finalizer goes.
//   KybernateRestore: waits Pending for its checkpoint → completed → pod created → Running → delete.
//   KybernateWorkload: Running → idle suspend whose checkpoint fails (cold fallback) → woken by a request
//     through the activator → Running → delete; and that suspend's own checkpoint workflow (Failed, no node).
//     And a pod the API server refuses (an unknown RuntimeClass): Failed with the refusal (patch
//     workload-reports-pod-refusal) → the spec fixed → Running → delete.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASYNC_ACTOR_KIND } from '../../api/asya/constants.ts';
import { FLAME_CLUSTER_KIND } from '../../api/flame/constants.ts';
import { CHECKPOINT_KIND, nodeTaskQueue, RESTORE_KIND, WORKLOAD_KIND } from '../../api/kybernate/constants.ts';
import type { NodeActivities } from '../../contract/kybernate-activities.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { resolveTool } from '../../tools/resolve.ts';
import type { Product } from '../../worker/product.ts';
import { HISTORIES_DIR, replayFailures } from '../../worker/replay.ts';
import { actorExample, createActor, deleteActor, hasCondition, conditionOf, waitActorGone, waitForActor } from '../support/asya.ts';
import { startTestProduct, workflowBundle } from '../support/controller.ts';
import { eventually, stackInfo, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { createFlameCluster, deleteFlameCluster, flameExample, getFlameCluster, patchFlameCluster, settled, waitForFlameCluster } from '../support/flame.ts';
import { checkpointExample, createCheckpoint, deleteCheckpoint, finished, forceDeletePod, patchCheckpointStatus, runningPodOn, waitCheckpointGone, waitForCheckpoint } from '../support/kybernate.ts';
import { createRestore, deleteRestore, getPod as getRestorePod, getRestore, handmadeCheckpoint, waitForRestore } from '../support/kybernate-restore.ts';
import { createWorkload, deleteWorkload, getWorkload, httpCall, startFakeContainer, waitForWorkload, workloadCheckpoints, workloadPods, type FakeContainer } from '../support/kybernate-workload.ts';
import { localSimulators } from '../../devstack/simulators/start.ts';

describe('recorded histories of the other kinds', () => {
  let kube: TestKube;
  let product: Product;
  let client: Client;
  let closeClient: () => Promise<void>;
  let container: FakeContainer;
  let activatorUrl: string;
  let nodeConnection: NativeConnection;
  let nodeWorker: Worker;
  let nodeRun: Promise<void>;
  const taskQueuePrefix = uniqueName('rec');
  const node = uniqueName('node');
  const pods: string[] = [];
  /** What the stand-in node worker does with the next dump of a container: complete it or fail it as CRIU does. */
  const dumps = new Map<string, 'complete' | 'criu-fails'>();
  const deletedImages: string[] = [];
  const recorded: { scenario: string; workflowId: string }[] = [];
  const record = (kind: string, scenario: string, namespace: string, name: string, uid: string) => recorded.push({ scenario, workflowId: workflowIdFor(kind, { namespace, name, uid }) });

  beforeAll(async () => {
    kube = await testKube('e2e-rec-kinds');
    // The product as `run --activator-port` composes it, with the broker (AsyncActors' queues) and the
    // simulated kubelet (Flame's, restores' and workloads' pods).
    product = await startTestProduct(kube.namespace, taskQueuePrefix, { flags: { amqpUrl: stackInfo().amqpUrl }, simulators: localSimulators(1_000) });
    activatorUrl = product.served.activator!;
    container = await startFakeContainer();
    // The node worker of `node`, played here (the dump itself is the containerd tests' business).
    const activities: NodeActivities = {
      checkpointContainer: async ({ containerId }) => {
        if (dumps.get(containerId) === 'criu-fails') {
          throw ApplicationFailure.create({
            type: 'ContainerdCheckpointFailed',
            message: `checkpoint container ${containerId}: criu failed: type DUMP errno 0; CRIU: Error (criu/cr-dump.c:2093): Dumping FAILED.`,
            nonRetryable: true,
          });
        }
        return { ref: `containerd.io/checkpoint/${containerId}:20250101T120000.000Z`, size: 3 * 1024 * 1024 };
      },
      deleteCheckpointImage: async ({ ref }) => (deletedImages.push(ref), { deleted: true }),
    };
    nodeConnection = await NativeConnection.connect({ address: stackInfo().temporalAddress });
    nodeWorker = await Worker.create({ connection: nodeConnection, namespace: stackInfo().temporalNamespace, taskQueue: nodeTaskQueue(taskQueuePrefix, node), activities });
    nodeRun = nodeWorker.run();
    const t = await temporalClient();
    client = t.client;
    closeClient = () => t.connection.close();
  });

  afterAll(async () => {
    nodeWorker?.shutdown();
    await nodeRun;
    await nodeConnection?.close();
    await container?.close();
    await product?.stop();
    await closeClient?.();
    for (const pod of pods) await forceDeletePod(kube.namespace, pod);
    await kube?.cleanup();
  });

  const workflowEnds = (workflowId: string) => eventually(`workflow ${workflowId} to end`, async () => (await client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED');

  it('FlameCluster: create → Running → scale → delete', async () => {
    const ns = kube.namespace;
    const name = uniqueName('fc');
    const created = await createFlameCluster(flameExample(ns, name, 2));
    record(FLAME_CLUSTER_KIND, 'flame-lifecycle', ns, name, created.metadata.uid!);
    await waitForFlameCluster(ns, name, 'Running with 2 executors', settled('Running', { sessionManager: 1, executors: 2 }));
    await patchFlameCluster(ns, name, { spec: { executorManager: { replicas: 3 } } });
    await waitForFlameCluster(ns, name, 'Running with 3 executors', (fc) => settled('Running', { sessionManager: 1, executors: 3 })(fc) && fc.status?.executorManager?.replicas === 3);
    await deleteFlameCluster(ns, name);
    await eventually('the cluster to be gone', async () => (await getFlameCluster(ns, name)) === undefined);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  it('AsyncActor: standalone create → queues, workload and scaling ready → delete', async () => {
    const ns = kube.namespace;
    const name = uniqueName('actor');
    const created = await createActor(actorExample('async-actor-standalone.yaml', ns, name));
    record(ASYNC_ACTOR_KIND, 'asya-standalone', ns, name, created.metadata.uid!);
    const ready = await waitForActor(ns, name, 'workload and transport ready', (a) => hasCondition('TransportReady', 'True', 'QueuesDeclared')(a) && conditionOf(a, 'ScalingReady')?.status === 'True');
    expect(['Running', 'Creating', 'Napping']).toContain(ready.status?.status);
    await deleteActor(ns, name);
    await waitActorGone(ns, name);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  it('KybernateCheckpoint: PodNotFound → delete', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kcp');
    const created = await createCheckpoint(checkpointExample(ns, name, 'no-such-pod'));
    record(CHECKPOINT_KIND, 'checkpoint-podnotfound', ns, name, created.metadata.uid!);
    const cp = await waitForCheckpoint(ns, name, 'Failed', finished);
    expect(cp.status?.phase).toBe('Failed');
    await deleteCheckpoint(ns, name);
    await waitCheckpointGone(ns, name, 15_000);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  const runningPod = async (outcome: 'complete' | 'criu-fails') => {
    const pod = uniqueName('counter');
    const containerId = uniqueName('ctr').replace(/-/g, '');
    pods.push(pod);
    dumps.set(containerId, outcome);
    await runningPodOn(kube.namespace, pod, node, { name: 'counter', containerId });
    return pod;
  };

  it('KybernateCheckpoint: a dump CRIU refuses → Failed → delete (finalizer released)', async () => {
    const ns = kube.namespace;
    const pod = await runningPod('criu-fails');
    const name = uniqueName('kcp');
    const created = await createCheckpoint(checkpointExample(ns, name, pod));
    record(CHECKPOINT_KIND, 'checkpoint-criu-failed', ns, name, created.metadata.uid!);
    const cp = await waitForCheckpoint(ns, name, 'Failed', finished);
    expect(cp.status).toMatchObject({ phase: 'Failed', message: expect.stringContaining('criu failed') });
    expect(cp.metadata.finalizers?.length).toBeGreaterThan(0);
    await deleteCheckpoint(ns, name);
    await waitCheckpointGone(ns, name);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  it('KybernateCheckpoint: a dump that completes → Completed → delete (the image removed on its node first)', async () => {
    const ns = kube.namespace;
    const pod = await runningPod('complete');
    const name = uniqueName('kcp');
    const created = await createCheckpoint(checkpointExample(ns, name, pod));
    record(CHECKPOINT_KIND, 'checkpoint-completed', ns, name, created.metadata.uid!);
    const cp = await waitForCheckpoint(ns, name, 'Completed', finished);
    expect(cp.status?.phase).toBe('Completed');
    await deleteCheckpoint(ns, name);
    await waitCheckpointGone(ns, name);
    expect(deletedImages).toContain(cp.status?.checkpointRef);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  it('KybernateRestore: waits for its checkpoint → pod → Running → delete', async () => {
    const ns = kube.namespace;
    const cp = uniqueName('kcp');
    await handmadeCheckpoint(ns, cp, { phase: 'InProgress', nodeName: node, message: 'Checkpointing' }, 'model');
    const name = uniqueName('krs');
    const created = await createRestore(ns, name, { checkpointRef: cp });
    record(RESTORE_KIND, 'restore-lifecycle', ns, name, created.metadata.uid!);
    await waitForRestore(ns, name, 'Pending', (r) => r.status?.phase === 'Pending');
    await patchCheckpointStatus(ns, cp, { phase: 'Completed', checkpointRef: `containerd.io/checkpoint/${cp}:20250101T120000.000Z`, checkpointSize: '1Mi', message: 'Checkpoint done' });
    const running = await waitForRestore(ns, name, 'Running', (r) => r.status?.phase === 'Running');
    expect(await getRestorePod(ns, running.status!.restoredPodName!)).toBeDefined();
    await deleteRestore(ns, name);
    await eventually('the restore to be gone', async () => (await getRestore(ns, name)) === undefined);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  it('KybernateWorkload: Running → idle suspend (cold fallback) → woken by a request → delete', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl');
    const created = await createWorkload(ns, name, { port: container.port, idleTimeout: '3s', queueTimeout: '15s' });
    record(WORKLOAD_KIND, 'workload-lifecycle', ns, name, created.metadata.uid!);
    const workflowId = recorded.at(-1)!.workflowId;
    await waitForWorkload(ns, name, 'Running', (w) => w.status?.phase === 'Running');
    const suspended = await waitForWorkload(ns, name, 'Suspended', (w) => w.status?.phase === 'Suspended', 60_000);
    expect(suspended.status?.suspendedCheckpoints).toBe(0);
    const [checkpoint] = await workloadCheckpoints(ns, name);
    expect(checkpoint?.status?.phase).toBe('Failed');
    record(CHECKPOINT_KIND, 'workload-suspend-checkpoint', ns, checkpoint!.metadata.name, checkpoint!.metadata.uid!);
    await eventually('the pod to be gone', async () => (await workloadPods(ns, name)).length === 0, 30_000);
    const woken = await httpCall(`${activatorUrl}/${ns}/${name}/v1/chat/completions`, { method: 'POST', body: '{"prompt":"hi"}' });
    expect(woken.status).toBe(200);
    await waitForWorkload(ns, name, 'Running after the wake', (w) => w.status?.phase === 'Running');
    await deleteWorkload(ns, name);
    await eventually('the workload to be gone', async () => (await getWorkload(ns, name)) === undefined);
    await eventually('its checkpoints to be gone', async () => (await workloadCheckpoints(ns, name)).length === 0, 90_000);
    await workflowEnds(workflowId);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  it('KybernateWorkload: a pod the API server refuses (unknown RuntimeClass) → Failed → spec fixed → Running → delete', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl-rc');
    const runtimeClass = uniqueName('no-such-class');
    const opts = { port: container.port, idleTimeout: '1h', queueTimeout: '10s' };
    const created = await createWorkload(ns, name, { ...opts, runtimeClassName: runtimeClass });
    record(WORKLOAD_KIND, 'workload-pod-refused', ns, name, created.metadata.uid!);
    const failed = await waitForWorkload(ns, name, 'Failed', (w) => w.status?.phase === 'Failed');
    expect(failed.status?.message).toContain(`RuntimeClass "${runtimeClass}" not found`);
    expect(await workloadPods(ns, name)).toEqual([]);
    // The spec fixed (the RuntimeClass dropped): the workload's watch runs a pass, and its pod runs.
    await createWorkload(ns, name, opts);
    await waitForWorkload(ns, name, 'Running', (w) => w.status?.phase === 'Running', 30_000);
    await deleteWorkload(ns, name);
    await eventually('the workload to be gone', async () => (await getWorkload(ns, name)) === undefined);
    await workflowEnds(recorded.at(-1)!.workflowId);
  });

  it('replays them on the current code (and records them when asked)', async () => {
    expect(recorded.map((r) => r.scenario)).toEqual([
      'flame-lifecycle',
      'asya-standalone',
      'checkpoint-podnotfound',
      'checkpoint-criu-failed',
      'checkpoint-completed',
      'restore-lifecycle',
      'workload-lifecycle',
      'workload-suspend-checkpoint',
      'workload-pod-refused',
    ]);
    const histories = [];
    for (const r of recorded) {
      histories.push({ workflowId: r.workflowId, history: await client.workflow.getHandle(r.workflowId).fetchHistory() });
      const label = process.env.KUBEAIRUNWAY_RECORD_HISTORIES;
      if (label) {
        // The CLI's JSON is the documented interchange format (historyFromJSON reads it back).
        const json = execFileSync(resolveTool('temporal')!.path, ['workflow', 'show', '--address', stackInfo().temporalAddress, '--namespace', stackInfo().temporalNamespace, '-w', r.workflowId, '-o', 'json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        writeFileSync(join(HISTORIES_DIR.pathname, `${label}-${r.scenario}.json`), `${JSON.stringify({ workflowId: r.workflowId, history: JSON.parse(json) })}\n`);
      }
    }
    expect(await replayFailures(await workflowBundle(), histories)).toEqual([]);
  });
});
