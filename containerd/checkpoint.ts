import type { CallOptions, Connection } from './connection.ts';
import { readBlob, writeBlob } from './content.ts';
import { criuLogExcerpt } from './criu-log.ts';
import { CHECKPOINT_LABEL, checkpointIndex, checkpointName, checkpointParts, MEDIA_TYPE, packCheckpointOptions, type RuncCheckpointOptions } from './encoding.ts';
import { classifyContainerdError, ContainerdError } from './errors.ts';
import { withLease } from './lease.ts';
import { requireTask } from './tasks.ts';
import { timestampToIso, type Descriptor, type Image } from './wire.ts';

// A task checkpoint as a named image, the way containerd's Go client makes one (task.Checkpoint):
// Tasks.Checkpoint has the runtime dump the processes with CRIU and answers with two blobs (the criu tar
// and the spec); an OCI index listing them is written to the content store and an image
// `containerd.io/checkpoint/<id>:<time>` points at it. All of it under one lease, so that nothing is
// collected before the image refers to it.

export interface CheckpointOptions extends RuncCheckpointOptions {
  /** The image name (default `containerd.io/checkpoint/<id>:<UTC time>`); a taken name fails with AlreadyExists. */
  name?: string;
  /** Bounds the dump (default 5 minutes: the seed's spec.timeout). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CheckpointImage {
  /** The image name: the checkpointRef. */
  ref: string;
  /** Bytes in the content store: the index and every blob it lists (the checkpointSize). */
  size: number;
  /** The index's digest (the image's target). */
  digest: string;
  /** The index's manifests: the criu tar and the spec. */
  descriptors: Descriptor[];
  createdAt?: string;
}

/**
 * Dumps the container's task into a checkpoint image. The task must be RUNNING or PAUSED: a task that
 * has stopped (perhaps by an earlier dump with `exit`) is never dumped again (FailedPrecondition). Like
 * containerd's own client the task is paused for the dump and resumed after, unless it was paused
 * already; with `exit` it has stopped by then. A failed dump is CheckpointFailed with CRIU's error lines
 * and leaves the task as it was.
 */
export async function checkpointTask(conn: Connection, containerId: string, opts: CheckpointOptions = {}): Promise<CheckpointImage> {
  const task = await requireTask(conn, containerId);
  if (task.status !== 'RUNNING' && task.status !== 'PAUSED') {
    throw new ContainerdError('FailedPrecondition', undefined, `the task of container ${containerId} is ${task.status}: there is nothing to dump`);
  }
  const name = opts.name ?? checkpointName(containerId);
  return withLease(conn, async (lease) => {
    const call: CallOptions = { lease, signal: opts.signal };
    const pausedHere = task.status === 'RUNNING';
    if (pausedHere) await conn.unary('tasks', 'Pause', { container_id: containerId }, call);
    let descriptors: Descriptor[] = [];
    let failure: ContainerdError | undefined;
    try {
      const res = await conn.unary<{ descriptors: Descriptor[] }>(
        'tasks',
        'Checkpoint',
        { container_id: containerId, parent_checkpoint: '', options: packCheckpointOptions(opts) },
        { ...call, operation: 'checkpoint', timeoutMs: opts.timeoutMs ?? 300_000 },
      );
      descriptors = res.descriptors;
    } catch (err) {
      failure = withCriuLog(classifyContainerdError(err, 'checkpoint'));
    }
    if (pausedHere) {
      try {
        await resumeAfterDump(conn, containerId, opts.exit ?? false);
      } catch (err) {
        // The dump's own failure says more than the resume's after it.
        if (!failure) throw err;
      }
    }
    if (failure) throw failure;
    return recordCheckpointImage(conn, containerId, descriptors, name, call);
  });
}

function withCriuLog(err: ContainerdError): ContainerdError {
  if (err.type !== 'CheckpointFailed') return err;
  return new ContainerdError(err.type, err.code, err.detail, criuLogExcerpt(err.detail));
}

async function resumeAfterDump(conn: Connection, containerId: string, exited: boolean): Promise<void> {
  try {
    await conn.unary('tasks', 'Resume', { container_id: containerId });
  } catch (err) {
    // After a dump with exit the task has stopped (or is gone): there is nothing to resume.
    if (exited && ['NotFound', 'FailedPrecondition', 'Unknown'].includes(classifyContainerdError(err).type)) return;
    throw err;
  }
}

/**
 * Writes the index of a checkpoint's blobs and names it as an image (the second half of a checkpoint,
 * separate so that it can be exercised where CRIU cannot dump). Call under the lease the blobs were
 * written with.
 */
export async function recordCheckpointImage(conn: Connection, containerId: string, descriptors: Descriptor[], name: string, call: CallOptions): Promise<CheckpointImage> {
  if (!descriptors.some((d) => d.media_type === MEDIA_TYPE.checkpoint)) {
    throw new ContainerdError('Unknown', undefined, `the checkpoint of ${containerId} returned no ${MEDIA_TYPE.checkpoint} blob`);
  }
  const index = checkpointIndex(descriptors);
  await writeBlob(conn, index.bytes, { ...call, mediaType: index.descriptor.media_type, labels: index.labels, ref: `checkpoint-index-${containerId}-${Date.now()}` });
  const res = await conn.unary<{ image: Image }>('images', 'Create', { image: { name, labels: { [CHECKPOINT_LABEL]: 'true' }, target: index.descriptor } }, call);
  const image: CheckpointImage = { ref: name, size: sizeOf(index.descriptor, descriptors), digest: index.descriptor.digest, descriptors };
  const createdAt = timestampToIso(res.image.created_at);
  if (createdAt) image.createdAt = createdAt;
  return image;
}

function sizeOf(index: Descriptor, children: Descriptor[]): number {
  return children.reduce((sum, d) => sum + d.size, index.size);
}

/** A checkpoint image by name, or undefined; an image that is not a checkpoint is refused (Invalid). */
export async function getCheckpoint(conn: Connection, ref: string, opts: CallOptions = {}): Promise<CheckpointImage | undefined> {
  let image: Image;
  try {
    image = (await conn.unary<{ image: Image }>('images', 'Get', { name: ref }, opts)).image;
  } catch (err) {
    if (classifyContainerdError(err).type === 'NotFound') return undefined;
    throw err;
  }
  return describeCheckpoint(conn, image, opts);
}

async function describeCheckpoint(conn: Connection, image: Image, opts: CallOptions): Promise<CheckpointImage> {
  if (image.labels[CHECKPOINT_LABEL] !== 'true' || !image.target) {
    throw new ContainerdError('Invalid', undefined, `image ${image.name} is not a checkpoint (no ${CHECKPOINT_LABEL} label)`);
  }
  const { all } = checkpointParts(await readBlob(conn, image.target.digest, opts));
  const out: CheckpointImage = { ref: image.name, size: sizeOf(image.target, all), digest: image.target.digest, descriptors: all };
  const createdAt = timestampToIso(image.created_at);
  if (createdAt) out.createdAt = createdAt;
  return out;
}

/** Checkpoint images in the namespace, of one container when given. */
export async function listCheckpoints(conn: Connection, containerId?: string, opts: CallOptions = {}): Promise<CheckpointImage[]> {
  const res = await conn.unary<{ images: Image[] }>('images', 'List', { filters: [`labels."${CHECKPOINT_LABEL}"==true`] }, opts);
  const prefix = containerId ? `containerd.io/checkpoint/${containerId}:` : '';
  const images = res.images.filter((i) => i.name.startsWith(prefix));
  return Promise.all(images.map((i) => describeCheckpoint(conn, i, opts)));
}

/**
 * Deletes a checkpoint image; containerd then collects the blobs only it held (synchronously: they are
 * gone when this returns). False when there was no such image; an image that is not a checkpoint is
 * refused (Invalid), so that a wrong ref never deletes a workload's image.
 */
export async function deleteCheckpoint(conn: Connection, ref: string, opts: CallOptions = {}): Promise<boolean> {
  const image = await getCheckpoint(conn, ref, opts);
  if (!image) return false;
  try {
    await conn.unary('images', 'Delete', { name: ref, sync: true }, opts);
  } catch (err) {
    if (classifyContainerdError(err).type === 'NotFound') return false;
    throw err;
  }
  return true;
}
