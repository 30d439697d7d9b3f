import { afterEach, describe, expect, it, vi } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { CheckpointImage, CheckpointOptions } from '../../containerd/checkpoint.ts';
import { ContainerdError } from '../../containerd/errors.ts';
import { runActivity } from '../testing/run-activity.ts';
import { createNodeActivities } from './node-activities.ts';

/** containerd's two calls the node worker makes: a dump that ends when the test says, and a delete. */
function fakeContainerd() {
  let finish: (image: CheckpointImage) => void = () => undefined;
  let fail: (err: unknown) => void = () => undefined;
  const dumps: { containerId: string; opts: CheckpointOptions }[] = [];
  return {
    dumps,
    finish: (image: CheckpointImage) => finish(image),
    fail: (err: unknown) => fail(err),
    checkpoint(containerId: string, opts: CheckpointOptions = {}): Promise<CheckpointImage> {
      dumps.push({ containerId, opts });
      return new Promise((resolve, reject) => {
        finish = resolve;
        fail = reject;
        // As the real client: an aborted call ends with containerd's CANCELLED.
        opts.signal?.addEventListener('abort', () => reject(new ContainerdError('Unavailable', 1, 'context canceled')));
      });
    },
    deleteCheckpoint: async (ref: string) => ref === 'present',
  };
}

afterEach(() => vi.useRealTimers());

describe('checkpointContainer', () => {
  it('heartbeats while the dump runs, and stops the task after it unless asked to leave it running', async () => {
    vi.useFakeTimers();
    const containerd = fakeContainerd();
    const env = new MockActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d));
    const running = env.run(createNodeActivities(containerd).checkpointContainer, { containerId: 'c1', leaveRunning: false });
    await vi.advanceTimersByTimeAsync(11_000);
    expect(beats).toHaveLength(2);
    containerd.finish({ ref: 'containerd.io/checkpoint/c1:1', size: 42, digest: 'sha256:x', descriptors: [] });
    expect(await running).toEqual({ ref: 'containerd.io/checkpoint/c1:1', size: 42 });
    expect(containerd.dumps[0]!.opts.exit).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(beats).toHaveLength(2);
  });

  it('a cancelled activity aborts the dump', async () => {
    const containerd = fakeContainerd();
    const env = new MockActivityEnvironment();
    const running = env.run(createNodeActivities(containerd).checkpointContainer, { containerId: 'c1', leaveRunning: true });
    await vi.waitFor(() => expect(containerd.dumps).toHaveLength(1));
    env.cancel();
    await expect(running).rejects.toMatchObject({ type: 'ContainerdUnavailable' });
    expect(containerd.dumps[0]!.opts.signal?.aborted).toBe(true);
  });

  it("a failed dump quotes CRIU's error lines and is not retried", async () => {
    const containerd = fakeContainerd();
    const running = runActivity(createNodeActivities(containerd).checkpointContainer, { containerId: 'c1', leaveRunning: true });
    await vi.waitFor(() => expect(containerd.dumps).toHaveLength(1));
    containerd.fail(new ContainerdError('CheckpointFailed', 2, 'criu failed: see criu-dump.log', '(00.1) Error (criu/vdso.c:381): vdso: bad bounds\n(00.2) Dumping failed'));
    await expect(running).rejects.toMatchObject({
      type: 'ContainerdCheckpointFailed',
      nonRetryable: true,
      message: expect.stringContaining('CRIU: Error (criu/vdso.c:381): vdso: bad bounds; Dumping failed'),
    });
  });

  it('refuses a GPU dump whose CUDA plugin is not on the node, before dumping', async () => {
    const containerd = fakeContainerd();
    await expect(runActivity(createNodeActivities(containerd).checkpointContainer, { containerId: 'c1', leaveRunning: true, gpuPluginPath: '/nonexistent/criu' })).rejects.toMatchObject({
      type: 'GpuPluginMissing',
      nonRetryable: true,
    });
    expect(containerd.dumps).toEqual([]);
  });
});

describe('deleteCheckpointImage', () => {
  it('says whether the image was there; a containerd failure leaves classified', async () => {
    const activities = createNodeActivities(fakeContainerd());
    expect(await runActivity(activities.deleteCheckpointImage, { ref: 'present' })).toEqual({ deleted: true });
    expect(await runActivity(activities.deleteCheckpointImage, { ref: 'gone' })).toEqual({ deleted: false });
    const down = createNodeActivities({ ...fakeContainerd(), deleteCheckpoint: async () => Promise.reject(new ContainerdError('Unavailable', 14, 'socket')) });
    await expect(runActivity(down.deleteCheckpointImage, { ref: 'present' })).rejects.toMatchObject({ type: 'ContainerdUnavailable', nonRetryable: false });
  });
});
