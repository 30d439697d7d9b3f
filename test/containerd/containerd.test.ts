import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCheckpointImage } from '../../containerd/checkpoint.ts';
import { ContainerdClient } from '../../containerd/client.ts';
import { hasBlob, writeBlob } from '../../containerd/content.ts';
import { encodeAnyBytes, MEDIA_TYPE, packSpec } from '../../containerd/encoding.ts';
import { ContainerdError } from '../../containerd/errors.ts';
import { withLease } from '../../containerd/lease.ts';
import { defaultSpec } from '../../containerd/spec.ts';
import { buildBusyboxRootfs, COUNTER_ARGS, reapOrphanContainerds, type Containerd } from '../../devstack/containerd.ts';
import { NODE_RUNTIMES } from '../support/node-runtimes.ts';
import { tarOf } from './tar.ts';

// The containerd client against a real containerd (started here on a private socket and state folder,
// not by the shared stack, which it needs nothing from), running a busybox counter in kubelet's
// namespace; twice: the host's (Debian 12's, CRIU 3.17) and the Kybernate node container's (trixie's,
// CRIU 4: the checkpoint/restore round trip runs there; test/support/node-runtimes.ts). Root only. Whether a checkpoint succeeds depends on this machine's CRIU: the test
// asks `criu check` first and expects the outcome that goes with its answer, saying which in its name.

const NAMESPACE = 'k8s.io';
/** One state folder per run below this; a run killed before its cleanup is reaped by the next. */
const RUNS_DIR = join(tmpdir(), 'kubeairunway-containerd');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const runtime of NODE_RUNTIMES) {
  const { unavailable, criu } = runtime;
  describe.skipIf(unavailable !== undefined)(`containerd client against ${runtime.label}${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    let dir: string;
    let ctd: Containerd;
    let client: ContainerdClient;
    let seq = 0;

    beforeAll(async () => {
      mkdirSync(RUNS_DIR, { recursive: true });
      const reaped = await reapOrphanContainerds(RUNS_DIR);
      if (reaped > 0) process.stdout.write(`[containerd] cleaned up after ${reaped} earlier run(s) killed before their cleanup\n`);
      dir = mkdtempSync(join(RUNS_DIR, 'run-'));
      ctd = await runtime.start(dir, (line) => process.stdout.write(`[containerd] ${line}\n`));
      client = new ContainerdClient({ socket: ctd.socket, namespace: NAMESPACE });
      process.stdout.write(`[containerd] ${(await client.version()).version}; CRIU: ${criu.works ? `${criu.version} passes criu check` : criu.reason}\n`);
      // A first run builds the node container's image (a few minutes, with progress lines).
    }, 20 * 60_000);

    afterAll(async () => {
      client?.close();
      await ctd?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** A counter container with a root file system of its own, started; removed by the returned function. */
    async function startCounter(): Promise<{ id: string; rootfs: string; remove: () => Promise<void> }> {
      const id = `counter-${++seq}`;
      const rootfs = buildBusyboxRootfs(join(dir, `rootfs-${id}`));
      await client.createContainer(id, { rootfs, args: COUNTER_ARGS, runtime: { runcRoot: ctd.runcRoot } });
      await client.startTask(id);
      await waitForCount(rootfs, 1);
      return { id, rootfs, remove: async () => void (await client.removeContainer(id)) };
    }

    function count(rootfs: string): number {
      try {
        return Number(readFileSync(join(rootfs, 'tmp', 'count'), 'utf8').trim()) || 0;
      } catch {
        return 0;
      }
    }

    async function waitForCount(rootfs: string, atLeast: number, timeoutMs = 10_000): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      while (count(rootfs) < atLeast) {
        if (Date.now() > deadline) throw new Error(`the counter in ${rootfs} did not reach ${atLeast} (at ${count(rootfs)})`);
        await sleep(100);
      }
      return count(rootfs);
    }

    it('answers with its version', async () => {
      const v = await client.version();
      expect(v.version).toMatch(/^\d+\.\d+/);
    });

    it('runs a busybox counter; pause freezes it (PAUSED, the count holds), resume thaws it (RUNNING, the count goes on)', async () => {
      const c = await startCounter();
      try {
        const running = await client.findTask(c.id);
        expect(running).toMatchObject({ containerId: c.id, status: 'RUNNING' });
        expect(running!.pid).toBeGreaterThan(1);

        await client.pause(c.id);
        expect(await client.findTask(c.id)).toMatchObject({ status: 'PAUSED', pid: running!.pid });
        const frozenAt = count(c.rootfs);
        await sleep(2_500);
        expect(count(c.rootfs)).toBe(frozenAt);

        await client.resume(c.id);
        expect(await client.findTask(c.id)).toMatchObject({ status: 'RUNNING', pid: running!.pid });
        await waitForCount(c.rootfs, frozenAt + 2);
      } finally {
        await c.remove();
      }
      expect(await client.findTask(c.id)).toBeUndefined();
    });

    it(
      criu.works
        ? `checkpoints a running task into a listed image with a size, leaving it RUNNING (CRIU ${criu.version})`
        : `fails a checkpoint CRIU cannot take with CRIU's error, leaving the task RUNNING and no image (${criu.reason})`,
      async () => {
        const c = await startCounter();
        try {
          const before = count(c.rootfs);
          const outcome = await client.checkpoint(c.id, { exit: false }).catch((err: unknown) => err);
          if (criu.works) {
            const image = outcome as Awaited<ReturnType<ContainerdClient['checkpoint']>>;
            expect(image.ref).toMatch(new RegExp(`^containerd\\.io/checkpoint/${c.id}:\\d{8}T\\d{6}\\.\\d{3}Z$`));
            expect(image.size).toBeGreaterThan(1024);
            expect(image.descriptors.map((d) => d.media_type)).toContain(MEDIA_TYPE.checkpoint);
            expect((await client.listCheckpoints(c.id)).map((i) => [i.ref, i.size])).toEqual([[image.ref, image.size]]);
            expect(await client.deleteCheckpoint(image.ref)).toBe(true);
            for (const d of [image.digest, ...image.descriptors.map((x) => x.digest)]) expect(await hasBlob(client.connection, d)).toBe(false);
          } else {
            expect(outcome).toBeInstanceOf(ContainerdError);
            const err = outcome as ContainerdError;
            expect(err).toMatchObject({ type: 'CheckpointFailed', retryable: false });
            expect(err.detail).toMatch(/criu failed/);
            // CRIU's own lines, from the dump log the shim's message names.
            expect(err.criuLog).toMatch(/Error \(criu\//);
            process.stdout.write(`[containerd] checkpoint failed as expected: ${err.criuLog!.split('\n')[0]}\n`);
            expect(await client.listCheckpoints(c.id)).toEqual([]);
          }
          // Either way the task runs on (leaveRunning), resumed after the pause around the dump.
          expect(await client.findTask(c.id)).toMatchObject({ status: 'RUNNING' });
          await waitForCount(c.rootfs, before + 2);
        } finally {
          await c.remove();
        }
      },
    );

    it('never dumps a task that has stopped, and says so (FailedPrecondition)', async () => {
      const c = await startCounter();
      try {
        await client.killTask(c.id);
        await client.waitTask(c.id);
        expect(await client.findTask(c.id)).toMatchObject({ status: 'STOPPED', exitStatus: 137 });
        await expect(client.checkpoint(c.id)).rejects.toMatchObject({ type: 'FailedPrecondition', retryable: false });
        expect(await client.deleteTask(c.id)).toBe(137);
        await expect(client.checkpoint(c.id)).rejects.toMatchObject({ type: 'NotFound' });
      } finally {
        await c.remove();
      }
    });

    it('records a checkpoint image from blobs, lists it with its size, restores from it as far as CRIU, and deletes it with its blobs', async () => {
      // A checkpoint as containerd's task service writes one (a criu tar and the spec), made by hand: the
      // half of checkpointing after the dump, and a restore that reaches `runc restore` and CRIU.
      const id = `handmade-${++seq}`;
      const rootfs = buildBusyboxRootfs(join(dir, `rootfs-${id}`));
      const spec = defaultSpec({ namespace: NAMESPACE, id, rootPath: rootfs, args: COUNTER_ARGS });
      const name = `containerd.io/checkpoint/${id}:20260101T000000.000Z`;
      const image = await withLease(client.connection, async (lease) => {
        const tar = await writeBlob(client.connection, tarOf({ 'descriptors.json': JSON.stringify(['pipe:[1]', 'pipe:[2]', 'pipe:[3]']) }), { lease, mediaType: MEDIA_TYPE.checkpoint });
        const config = await writeBlob(client.connection, encodeAnyBytes(packSpec(spec)), { lease, mediaType: MEDIA_TYPE.checkpointConfig });
        return recordCheckpointImage(client.connection, id, [tar, config], name, { lease });
      });
      try {
        // The lease has ended: only the image (and the index's gc.ref labels) keep the blobs now.
        expect(await client.getCheckpoint(name)).toEqual({ ...image, descriptors: image.descriptors.map((d) => ({ ...d, annotations: {} })) });
        expect((await client.listCheckpoints()).map((i) => i.ref)).toEqual([name]);
        expect(image.size).toBe(image.descriptors.reduce((s, d) => s + d.size, 0) + (await client.connection.unary<{ info: { size: number } }>('content', 'Info', { digest: image.digest })).info.size);
        for (const d of image.descriptors) expect(await hasBlob(client.connection, d.digest)).toBe(true);
        await expect(client.checkpoint(id)).rejects.toMatchObject({ type: 'NotFound' });

        const workPath = join(dir, `criu-work-${id}`);
        const restored = await client.restoreTask(name, { containerId: `${id}-restored`, workPath, runtime: { runcRoot: ctd.runcRoot } }).catch((e: unknown) => e);
        // No dump is in the tar, so CRIU fails whether or not it works here; it got as far as CRIU.
        expect(restored).toMatchObject({ type: 'CheckpointFailed', retryable: false, detail: expect.stringMatching(/criu failed: type RESTORE/) });
        if (!criu.works) expect((restored as ContainerdError).criuLog).toMatch(/Error \(criu\//);
        // A failed restore leaves nothing behind.
        expect(await client.findTask(`${id}-restored`)).toBeUndefined();
        expect(await client.deleteContainer(`${id}-restored`)).toBe(false);
      } finally {
        expect(await client.deleteCheckpoint(name)).toBe(true);
      }
      expect(await client.deleteCheckpoint(name)).toBe(false);
      expect(await client.getCheckpoint(name)).toBeUndefined();
      for (const d of [image.digest, ...image.descriptors.map((x) => x.digest)]) expect(await hasBlob(client.connection, d)).toBe(false);
    });

    it('refuses to delete an image that is not a checkpoint', async () => {
      const name = 'docker.io/library/app:1';
      await withLease(client.connection, async (lease) => {
        const blob = await writeBlob(client.connection, Buffer.from('{"schemaVersion":2,"manifests":[]}'), { lease, mediaType: MEDIA_TYPE.index });
        await client.connection.unary('images', 'Create', { image: { name, labels: {}, target: blob } }, { lease });
      });
      try {
        await expect(client.deleteCheckpoint(name)).rejects.toMatchObject({ type: 'Invalid' });
        expect((await client.connection.unary<{ image: { name: string } }>('images', 'Get', { name })).image.name).toBe(name);
      } finally {
        await client.connection.unary('images', 'Delete', { name, sync: true });
      }
    });

    it.skipIf(!criu.works)(
      `restores a checkpoint taken with exit (leaveRunning: false) and the counter continues where it was${criu.works ? '' : ` (skipped: ${criu.reason})`}`,
      async () => {
        const c = await startCounter();
        const restoredId = `${c.id}-restored`;
        let ref: string | undefined;
        try {
          await waitForCount(c.rootfs, 3);
          const image = await client.checkpoint(c.id, { exit: true });
          ref = image.ref;
          expect(await client.findTask(c.id)).toMatchObject({ status: 'STOPPED' });
          // Stopped by the dump: a second dump is refused, not taken.
          await expect(client.checkpoint(c.id)).rejects.toMatchObject({ type: 'FailedPrecondition' });
          const atDump = count(c.rootfs);
          await c.remove();
          const task = await client.restoreTask(image.ref, { containerId: restoredId, workPath: join(dir, `criu-work-${restoredId}`), runtime: { runcRoot: ctd.runcRoot } });
          expect(task).toMatchObject({ containerId: restoredId, status: 'RUNNING' });
          // A restarted loop would write 1, 2, ...; the restored one goes on from its count.
          const after = await waitForCount(c.rootfs, atDump + 2);
          expect(after).toBeGreaterThan(atDump);
        } finally {
          await client.removeContainer(restoredId).catch(() => undefined);
          await c.remove().catch(() => undefined);
          if (ref) await client.deleteCheckpoint(ref);
        }
      },
    );

    it('runs a container on a snapshot (native snapshotter), and removes the snapshot with the container', async () => {
      const id = `snap-${++seq}`;
      await client.createContainer(id, { rootfs: { snapshotter: 'native' }, args: COUNTER_ARGS, runtime: { runcRoot: ctd.runcRoot } });
      try {
        const { mounts } = await client.connection.unary<{ mounts: { type: string; source: string }[] }>('snapshots', 'Mounts', { snapshotter: 'native', key: id });
        expect(mounts).toEqual([expect.objectContaining({ type: 'bind' })]);
        // The native snapshotter's active snapshot is a plain folder on the node: the image goes there.
        buildBusyboxRootfs(mounts[0]!.source);
        expect(await client.startTask(id)).toMatchObject({ status: 'RUNNING' });
        await waitForCount(mounts[0]!.source, 1);
      } finally {
        expect(await client.removeContainer(id)).toBe(true);
      }
      await expect(client.connection.unary('snapshots', 'Mounts', { snapshotter: 'native', key: id })).rejects.toMatchObject({ type: 'NotFound' });
    });

    it('reports what is missing as NotFound, and a containerd that is not there as Unavailable (retryable)', async () => {
      expect(await client.findTask('nothing')).toBeUndefined();
      await expect(client.pause('nothing')).rejects.toMatchObject({ type: 'NotFound', retryable: false });
      await expect(client.startTask('nothing')).rejects.toMatchObject({ type: 'NotFound' });
      await expect(client.restoreTask('containerd.io/checkpoint/nothing:x', { containerId: 'x' })).rejects.toMatchObject({ type: 'NotFound' });
      expect(await client.deleteContainer('nothing')).toBe(false);
      const nowhere = new ContainerdClient({ socket: join(dir, 'no.sock'), namespace: NAMESPACE, timeoutMs: 2_000 });
      try {
        await expect(nowhere.version()).rejects.toMatchObject({ type: 'Unavailable', retryable: true });
      } finally {
        nowhere.close();
      }
    });
  });
}
