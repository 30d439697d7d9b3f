import type { CallOptions, Connection } from './connection.ts';
import { createContainer, deleteContainer, getContainer, rootfsMounts, type RuntimeOptions, type SnapshotRootfs } from './containers.ts';
import { readBlob } from './content.ts';
import { criuLogExcerpt } from './criu-log.ts';
import { checkpointParts, decodeAnyBytes, packRuncOptions, unpackSpec } from './encoding.ts';
import { classifyContainerdError, ContainerdError } from './errors.ts';
import { withLease } from './lease.ts';
import { createAndStartTask, createTaskRequest, deleteTask, type TaskState } from './tasks.ts';
import type { Descriptor, Image } from './wire.ts';

// A task restored from a checkpoint image (the seed's variant A: a bare containerd container, which
// Kubernetes does not see): a new container with the spec saved in the checkpoint, then a task created
// with the checkpoint's criu tar, which the runc shim restores with `runc restore` when it starts.

export interface RestoreOptions {
  /** The new container's id. */
  containerId: string;
  /**
   * Its root file system: a host folder, a snapshot (e.g. from the image's chain id), or (omitted) the
   * root path in the checkpointed spec, for containers whose root was a host folder. It must hold the
   * files the dumped processes had open.
   */
  rootfs?: string | SnapshotRootfs;
  /** Changes to the checkpointed spec (or the spec, for a checkpoint without one). */
  spec?: (spec: Record<string, unknown> | undefined) => Record<string, unknown>;
  runtime?: RuntimeOptions;
  /** CRIU's work folder for the restore (its restore.log stays there). */
  workPath?: string;
  labels?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface RestorePlan {
  checkpoint: Descriptor;
  config: Descriptor | undefined;
}

/** What to restore from: the image's criu tar and spec, read from its index. */
export async function restorePlan(conn: Connection, ref: string, call: CallOptions = {}): Promise<RestorePlan> {
  const image = (await conn.unary<{ image: Image }>('images', 'Get', { name: ref }, call)).image;
  if (!image.target) throw new ContainerdError('Invalid', undefined, `image ${ref} has no target`);
  const { checkpoint, config } = checkpointParts(await readBlob(conn, image.target.digest, call));
  if (!checkpoint) throw new ContainerdError('Invalid', undefined, `image ${ref} holds no criu checkpoint`);
  return { checkpoint, config };
}

/**
 * Restores a checkpoint image into a new container and starts it. A failed restore removes what it
 * created (task, container, snapshot) and is CheckpointFailed with CRIU's error lines when the runtime
 * failed.
 */
export async function restoreTask(conn: Connection, ref: string, opts: RestoreOptions): Promise<TaskState> {
  return withLease(conn, async (lease) => {
    const call: CallOptions = { lease, signal: opts.signal };
    const plan = await restorePlan(conn, ref, call);
    const saved = plan.config ? unpackSpec(decodeAnyBytes(await readBlob(conn, plan.config.digest, call))) : undefined;
    const spec = opts.spec ? opts.spec(saved) : saved;
    if (!spec) throw new ContainerdError('Invalid', undefined, `image ${ref} holds no spec: pass one`);
    const savedRoot = (spec.root as { path?: string } | undefined)?.path;
    const rootfs = opts.rootfs ?? savedRoot;
    if (!rootfs) throw new ContainerdError('Invalid', undefined, `image ${ref}: no root file system to restore into`);
    await createContainer(conn, opts.containerId, { rootfs, spec, runtime: opts.runtime, labels: opts.labels }, call);
    try {
      const container = await getContainer(conn, opts.containerId, call);
      const request = createTaskRequest(opts.containerId, {
        rootfs: container ? await rootfsMounts(conn, container, call) : [],
        checkpoint: plan.checkpoint,
        ...(opts.workPath ? { options: packRuncOptions({ criuWorkPath: opts.workPath }) } : {}),
      });
      return await createAndStartTask(conn, request, { ...call, operation: 'restore', timeoutMs: opts.timeoutMs ?? 600_000 });
    } catch (err) {
      let failure = classifyContainerdError(err, 'restore');
      // Read before the cleanup: CRIU's log is in the task's bundle, which deleting the task removes.
      if (failure.type === 'CheckpointFailed') failure = new ContainerdError(failure.type, failure.code, failure.detail, criuLogExcerpt(failure.detail));
      await deleteTask(conn, opts.containerId).catch(() => undefined);
      await deleteContainer(conn, opts.containerId).catch(() => undefined);
      throw failure;
    }
  });
}
