// KybernateCheckpoint (seed 003, issue 13) end to end: the real stack, the controller with this "node's"
// worker beside a real containerd (root only; twice: the host's Debian 12 containerd, whose CRIU 3.17
// fails, and the Kybernate node container's, forky's CRIU 4.2, which dumps: test/support/node-runtimes.ts), and a busybox
// counter running in kubelet's containerd namespace. There is no kubelet: the test plays it, binding a pod
// to the node by name and patching its status to Running with the counter's real container id. Whether
// the dump itself succeeds depends on this machine's CRIU (`criu check` is asked first): Completed with
// an image containerd lists where CRIU works, Failed with CRIU's error where it cannot (Debian 12's CRIU
// 3.17 on recent kernels); the test says which in its name and asserts that outcome precisely.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_FINALIZER } from '../../api/kybernate/constants.ts';
import { recordCheckpointImage } from '../../containerd/checkpoint.ts';
import { ContainerdClient } from '../../containerd/client.ts';
import { KUBERNETES_NAMESPACE } from '../../containerd/container-id.ts';
import { hasBlob, writeBlob } from '../../containerd/content.ts';
import { encodeAnyBytes, MEDIA_TYPE, packSpec } from '../../containerd/encoding.ts';
import { withLease } from '../../containerd/lease.ts';
import { defaultSpec } from '../../containerd/spec.ts';
import { buildBusyboxRootfs, COUNTER_ARGS, reapOrphanContainerds, type Containerd } from '../../devstack/containerd.ts';
import { formatBytes } from '../../workflows/kybernate/format-bytes.ts';
import { tarOf } from '../containerd/tar.ts';
import { startTestProduct } from '../support/controller.ts';
import type { Product } from '../../worker/product.ts';
import { eventsFor } from '../support/deployments.ts';
import { testKube, uniqueName, type TestKube } from '../support/env.ts';
import { NODE_RUNTIMES } from '../support/node-runtimes.ts';
import {
  checkpointExample,
  createCheckpoint,
  deleteCheckpoint,
  finished,
  forceDeletePod,
  patchCheckpointStatus,
  readyCondition,
  runningPodOn,
  startCounter,
  waitCheckpointGone,
  waitForCheckpoint,
  type Counter,
} from '../support/kybernate.ts';

/** One state folder per run below this (shared with the containerd client's tests); a killed run's is reaped by the next. */
const RUNS_DIR = join(tmpdir(), 'kubeairunway-containerd');
const CONTAINER = 'counter';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

for (const runtime of NODE_RUNTIMES) {
  const { unavailable, criu } = runtime;
  describe.skipIf(unavailable !== undefined)(`KybernateCheckpoint on ${runtime.label}${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    let kube: TestKube;
    let ctl: Product;
    let dir: string;
    let ctd: Containerd;
    let client: ContainerdClient;
    const node = uniqueName('node');
    const counters: Counter[] = [];
    const pods: string[] = [];

    beforeAll(async () => {
      mkdirSync(RUNS_DIR, { recursive: true });
      await reapOrphanContainerds(RUNS_DIR);
      dir = mkdtempSync(join(RUNS_DIR, 'kybernate-'));
      ctd = await runtime.start(dir, (line) => process.stdout.write(`[kybernate] ${line}\n`));
      client = new ContainerdClient({ socket: ctd.socket, namespace: KUBERNETES_NAMESPACE });
      process.stdout.write(`[kybernate] containerd ${(await client.version()).version}; CRIU: ${criu.works ? `${criu.version} passes criu check` : criu.reason}\n`);
      kube = await testKube('kyb');
      // No simulators: the test is this node's kubelet, and nothing else may touch its pods' status.
      ctl = await startTestProduct(kube.namespace, uniqueName('kar'), { flags: { node: true, nodeName: node, containerdSocket: ctd.socket } });
      // A first run builds the node container's image (a few minutes, with progress lines).
    }, 20 * 60_000);

    afterAll(async () => {
      await ctl?.stop();
      // No kubelet confirms a graceful deletion of a pod bound to a node: remove them at once.
      for (const pod of pods) await forceDeletePod(kube.namespace, pod);
      await kube?.cleanup();
      for (const c of counters) await c.remove().catch(() => undefined);
      client?.close();
      await ctd?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** A running counter in containerd and a Running pod on this node whose container status names it. */
    async function runningCounterPod(): Promise<{ counter: Counter; pod: string }> {
      const counter = await startCounter(client, ctd, dir, uniqueName('kyb-counter'));
      counters.push(counter);
      const pod = uniqueName('counter');
      pods.push(pod);
      await runningPodOn(kube.namespace, pod, node, { name: CONTAINER, containerId: counter.id });
      return { counter, pod };
    }

    it(
      criu.works
        ? `checkpoints a pod's running container into an image containerd lists, Completed with its size; the task runs on; deleting the checkpoint deletes the image (CRIU ${criu.version})`
        : `fails a checkpoint CRIU cannot take with CRIU's message, the task still RUNNING and no image; deleting it releases the finalizer (${criu.reason})`,
      async () => {
        const { counter, pod } = await runningCounterPod();
        const name = uniqueName('kcp');
        const created = await createCheckpoint(checkpointExample(kube.namespace, name, pod));
        expect(created.spec).toMatchObject({ podName: pod, leaveRunning: true, timeout: 300, storage: { type: 'containerd' } });
        const before = counter.count();

        const cp = await waitForCheckpoint(kube.namespace, name, 'Completed or Failed', finished, 120_000);
        expect(cp.metadata.finalizers).toContain(ARTIFACTS_FINALIZER);
        const status = cp.status!;
        expect(status).toMatchObject({ nodeName: node, containerID: counter.id, observedGeneration: cp.metadata.generation });
        expect(status.startTime).toMatch(ISO);
        expect(status.completionTime).toMatch(ISO);
        expect(Date.parse(status.completionTime!)).toBeGreaterThanOrEqual(Date.parse(status.startTime!));

        if (criu.works) {
          expect(status.phase).toBe('Completed');
          expect(status.checkpointRef).toMatch(new RegExp(`^containerd\\.io/checkpoint/${counter.id}:\\d{8}T\\d{6}\\.\\d{3}Z$`));
          const image = await client.getCheckpoint(status.checkpointRef!);
          expect(image).toBeDefined();
          expect(status.checkpointSize).toBe(formatBytes(image!.size));
          expect(status.message).toBe(`Checkpoint ${status.checkpointRef} (${status.checkpointSize})`);
          expect(readyCondition(cp)).toMatchObject({ status: 'True', reason: 'Completed', message: 'Checkpoint completed' });
          expect((await client.listCheckpoints(counter.id)).map((i) => i.ref)).toEqual([status.checkpointRef]);
          process.stdout.write(`[kybernate] checkpoint Completed: ${status.checkpointRef} (${status.checkpointSize})\n`);
        } else {
          expect(status.phase).toBe('Failed');
          // runc's message as the shim reports it (naming CRIU's dump log on the node), then CRIU's own
          // error lines from that log, the first of them the one `criu check` gives.
          expect(status.message).toMatch(new RegExp(`^checkpoint container ${counter.id}: .*criu failed: type DUMP .*criu-dump\\.log: unknown; CRIU: Error \\(criu/`));
          const checkError = /Error \(criu\/.*$/.exec(criu.reason ?? '')?.[0];
          if (checkError) expect(status.message).toContain(checkError);
          expect(readyCondition(cp)).toMatchObject({ status: 'False', reason: 'ContainerdCheckpointFailed', message: status.message });
          expect(status.checkpointRef).toBeUndefined();
          expect(status.checkpointSize).toBeUndefined();
          expect(await client.listCheckpoints(counter.id)).toEqual([]);
          process.stdout.write(`[kybernate] checkpoint failed as expected: ${status.message}\n`);
        }
        // Either way the container runs on (leaveRunning), resumed after the pause around the dump.
        expect(await client.findTask(counter.id)).toMatchObject({ status: 'RUNNING' });
        await counter.waitForCount(before + 2);

        await deleteCheckpoint(kube.namespace, name);
        await waitCheckpointGone(kube.namespace, name);
        if (criu.works) expect(await client.getCheckpoint(status.checkpointRef!)).toBeUndefined();
        expect(await client.listCheckpoints(counter.id)).toEqual([]);
        expect((await eventsFor(kube.namespace, name)).filter((e) => e.reason === 'FinalizerTimeout')).toEqual([]);
      },
    );

    it(
      criu.works
        ? `with leaveRunning: false the dump stops the task (runc's exit) (CRIU ${criu.version})`
        : `with leaveRunning: false a dump CRIU cannot take leaves the task RUNNING (${criu.reason})`,
      async () => {
        const { counter, pod } = await runningCounterPod();
        const name = uniqueName('kcp');
        const spec = checkpointExample(kube.namespace, name, pod, CONTAINER);
        spec.spec.leaveRunning = false;
        await createCheckpoint(spec);
        const cp = await waitForCheckpoint(kube.namespace, name, 'Completed or Failed', finished, 120_000);
        if (criu.works) {
          expect(cp.status?.phase).toBe('Completed');
          expect((await client.findTask(counter.id))?.status).toBe('STOPPED');
        } else {
          expect(cp.status).toMatchObject({ phase: 'Failed', message: expect.stringMatching(/criu failed: .*; CRIU: Error \(criu\//) });
          expect(await client.findTask(counter.id)).toMatchObject({ status: 'RUNNING' });
        }
        await deleteCheckpoint(kube.namespace, name);
        await waitCheckpointGone(kube.namespace, name);
      },
    );

    it('refuses a GPU checkpoint whose CRIU CUDA plugin is not at spec.gpu.pluginPath on the node, before any dump; the task runs on', async () => {
      const { counter, pod } = await runningCounterPod();
      const name = uniqueName('kcp');
      const spec = checkpointExample(kube.namespace, name, pod, CONTAINER);
      const pluginDir = join(dir, 'no-cuda-plugin');
      mkdirSync(pluginDir, { recursive: true });
      spec.spec.gpu = { enabled: true, pluginPath: pluginDir };
      await createCheckpoint(spec);
      const cp = await waitForCheckpoint(kube.namespace, name, 'Failed', finished, 120_000);
      expect(cp.status?.phase).toBe('Failed');
      expect(cp.status?.message).toBe(
        `spec.gpu.pluginPath: CRIU's CUDA plugin is not at ${join(pluginDir, 'cuda_plugin.so')} on this node. Mount the plugin directory into the node worker at that path, ` +
          `and have containerd's CRIU load plugins from it (CRIU_LIBS_DIR in containerd's environment, or libdir in /etc/criu/runc.conf)`,
      );
      expect(readyCondition(cp)).toMatchObject({ status: 'False', reason: 'GpuPluginMissing' });
      // Refused before the dump: no pause, no image, the counter never stopped.
      expect(await client.findTask(counter.id)).toMatchObject({ status: 'RUNNING' });
      expect(await client.listCheckpoints(counter.id)).toEqual([]);
      await deleteCheckpoint(kube.namespace, name);
      await waitCheckpointGone(kube.namespace, name);
    });

    it('deleting a Completed checkpoint deletes its image and blobs in the node\'s containerd before the finalizer goes (an image recorded by hand, as a dump leaves it)', async () => {
      // The half of a checkpoint after CRIU's dump (a criu tar and the spec, indexed and named), so that
      // the cleanup runs against a real image wherever CRIU cannot dump.
      const id = uniqueName('handmade');
      const ref = `containerd.io/checkpoint/${id}:20260101T000000.000Z`;
      const spec = defaultSpec({ namespace: KUBERNETES_NAMESPACE, id, rootPath: buildBusyboxRootfs(join(dir, `rootfs-${id}`)), args: COUNTER_ARGS });
      const image = await withLease(client.connection, async (lease) => {
        const tar = await writeBlob(client.connection, tarOf({ 'descriptors.json': JSON.stringify(['pipe:[1]', 'pipe:[2]', 'pipe:[3]']) }), { lease, mediaType: MEDIA_TYPE.checkpoint });
        const config = await writeBlob(client.connection, encodeAnyBytes(packSpec(spec)), { lease, mediaType: MEDIA_TYPE.checkpointConfig });
        return recordCheckpointImage(client.connection, id, [tar, config], ref, { lease });
      });
      expect(await client.getCheckpoint(ref)).toBeDefined();

      // A checkpoint whose own pass ended at once (no pod), then given the status a dump on this node writes.
      const name = uniqueName('kcp');
      await createCheckpoint(checkpointExample(kube.namespace, name, 'gone-pod'));
      await waitForCheckpoint(kube.namespace, name, 'Failed', finished);
      await patchCheckpointStatus(kube.namespace, name, { phase: 'Completed', message: `Checkpoint ${ref}`, checkpointRef: ref, checkpointSize: formatBytes(image.size), nodeName: node, containerID: id });

      await deleteCheckpoint(kube.namespace, name);
      await waitCheckpointGone(kube.namespace, name);
      expect(await client.getCheckpoint(ref)).toBeUndefined();
      for (const digest of [image.digest, ...image.descriptors.map((d) => d.digest)]) expect(await hasBlob(client.connection, digest)).toBe(false);
      expect((await eventsFor(kube.namespace, name)).filter((e) => e.reason === 'FinalizerTimeout')).toEqual([]);
    });

    it('fails with PodNotFound when the pod does not exist, without a node call; deletion releases it at once', async () => {
      const name = uniqueName('kcp');
      await createCheckpoint(checkpointExample(kube.namespace, name, 'no-such-pod'));
      const cp = await waitForCheckpoint(kube.namespace, name, 'Failed', finished);
      const message = `Pod ${kube.namespace}/no-such-pod does not exist`;
      expect(cp.status).toMatchObject({ phase: 'Failed', message });
      expect(cp.status?.nodeName).toBeUndefined();
      expect(cp.status?.startTime).toBeUndefined();
      expect(readyCondition(cp)).toMatchObject({ status: 'False', reason: 'PodNotFound', message });
      await deleteCheckpoint(kube.namespace, name);
      await waitCheckpointGone(kube.namespace, name, 15_000);
    });

    it('fails with ContainerNotFound when the pod has no such container', async () => {
      const { pod } = await runningCounterPod();
      const name = uniqueName('kcp');
      await createCheckpoint(checkpointExample(kube.namespace, name, pod, 'sidecar'));
      const cp = await waitForCheckpoint(kube.namespace, name, 'Failed', finished);
      const message = `Container 'sidecar' of pod ${kube.namespace}/${pod} is not running`;
      expect(cp.status).toMatchObject({ phase: 'Failed', message });
      expect(readyCondition(cp)).toMatchObject({ status: 'False', reason: 'ContainerNotFound', message });
      await deleteCheckpoint(kube.namespace, name);
      await waitCheckpointGone(kube.namespace, name, 15_000);
    });
  });
}
