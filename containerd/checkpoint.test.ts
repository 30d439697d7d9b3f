import { describe, expect, it } from 'vitest';
import { checkpointTask, deleteCheckpoint } from './checkpoint.ts';
import { CHECKPOINT_LABEL, checkpointIndex, MEDIA_TYPE, unpackRunc } from './encoding.ts';
import { FakeConnection, grpcError } from './testing/fake-connection.ts';
import type { Any, Descriptor } from './wire.ts';

const TAR: Descriptor = { media_type: MEDIA_TYPE.checkpoint, digest: `sha256:${'a'.repeat(64)}`, size: 5000 };
const SPEC: Descriptor = { media_type: MEDIA_TYPE.checkpointConfig, digest: `sha256:${'b'.repeat(64)}`, size: 700 };
const DUMP_FAILED = 'runc did not terminate successfully: exit status 1: criu failed: type DUMP errno 0 path= /nonexistent/criu-dump.log: unknown';

function daemon(status: string, overrides: Record<string, (r: Record<string, unknown>) => unknown> = {}) {
  return new FakeConnection({
    'tasks.Get': () => ({ process: { container_id: '', id: 'c1', pid: 42, status, exit_status: 0, exited_at: null } }),
    'tasks.Checkpoint': () => ({ descriptors: [TAR, SPEC] }),
    'images.Create': (r) => ({ image: { ...(r.image as object), created_at: { seconds: 1_800_000_000, nanos: 0 } } }),
    ...overrides,
  });
}

describe('checkpointTask', () => {
  it('pauses, dumps leaving the task running, resumes, then names an index of the blobs as an image, all under one lease', async () => {
    const conn = daemon('RUNNING');
    const image = await checkpointTask(conn.as(), 'c1', { name: 'containerd.io/checkpoint/c1:t' });
    expect(conn.names).toEqual(['tasks.Get', 'leases.Create', 'tasks.Pause', 'tasks.Checkpoint', 'tasks.Resume', 'content.Write', 'images.Create', 'leases.Delete']);
    const lease = conn.calls[1]!.request.id as string;
    expect((conn.calls[1]!.request.labels as Record<string, string>)['containerd.io/gc.expire']).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const c of conn.calls.slice(2, 4).concat(conn.calls.slice(5, 7))) expect(c.lease).toBe(lease);
    const dump = conn.calls[3]!.request;
    expect(dump.container_id).toBe('c1');
    expect((dump.options as Any).type_url).toBe('containerd.runc.v1.CheckpointOptions');
    expect(unpackRunc(dump.options as Any)).toMatchObject({ exit: false });
    const index = checkpointIndex([TAR, SPEC]);
    expect(conn.calls[5]!.request).toMatchObject({ action: 'COMMIT', expected: index.descriptor.digest, total: index.bytes.length, labels: index.labels });
    expect(conn.calls[6]!.request).toEqual({ image: { name: 'containerd.io/checkpoint/c1:t', labels: { [CHECKPOINT_LABEL]: 'true' }, target: index.descriptor } });
    expect(image).toEqual({
      ref: 'containerd.io/checkpoint/c1:t',
      size: index.bytes.length + 5000 + 700,
      digest: index.descriptor.digest,
      descriptors: [TAR, SPEC],
      createdAt: '2027-01-15T08:00:00.000Z',
    });
  });

  it('with exit, asks runc to stop the task and does not mind that it cannot be resumed', async () => {
    const resumeFails = daemon('RUNNING', {
      'tasks.Resume': () => {
        throw grpcError(5, 'task c1 not found');
      },
    });
    const image = await checkpointTask(resumeFails.as(), 'c1', { exit: true });
    expect(unpackRunc(resumeFails.calls[3]!.request.options as Any)).toMatchObject({ exit: true });
    expect(image.ref).toMatch(/^containerd\.io\/checkpoint\/c1:\d{8}T\d{6}\.\d{3}Z$/);
  });

  it('leaves a paused task paused', async () => {
    const conn = daemon('PAUSED');
    await checkpointTask(conn.as(), 'c1');
    expect(conn.names).not.toContain('tasks.Pause');
    expect(conn.names).not.toContain('tasks.Resume');
  });

  it('never dumps a task that has stopped (an earlier dump with exit) or does not exist', async () => {
    const stopped = daemon('STOPPED');
    await expect(checkpointTask(stopped.as(), 'c1')).rejects.toMatchObject({ type: 'FailedPrecondition', detail: expect.stringMatching(/is STOPPED: there is nothing to dump/) });
    expect(stopped.names).toEqual(['tasks.Get']);
    const missing = daemon('RUNNING', {
      'tasks.Get': () => {
        throw grpcError(5, 'no running task found: task c1 not found: not found');
      },
    });
    await expect(checkpointTask(missing.as(), 'c1')).rejects.toMatchObject({ type: 'NotFound' });
    expect(missing.names).toEqual(['tasks.Get']);
  });

  it('fails a dump CRIU could not take as CheckpointFailed, resumes the task and records no image', async () => {
    const conn = daemon('RUNNING', {
      'tasks.Checkpoint': () => {
        throw grpcError(2, DUMP_FAILED);
      },
    });
    const err = await checkpointTask(conn.as(), 'c1').catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'CheckpointFailed', retryable: false, detail: DUMP_FAILED, criuLog: DUMP_FAILED });
    expect(conn.names).toEqual(['tasks.Get', 'leases.Create', 'tasks.Pause', 'tasks.Checkpoint', 'tasks.Resume', 'leases.Delete']);
  });

  it('refuses an answer without a criu tar', async () => {
    const conn = daemon('RUNNING', { 'tasks.Checkpoint': () => ({ descriptors: [SPEC] }) });
    await expect(checkpointTask(conn.as(), 'c1')).rejects.toMatchObject({ type: 'Unknown', detail: expect.stringMatching(/no .*criu\.tar blob/) });
  });
});

describe('deleteCheckpoint', () => {
  const index = checkpointIndex([TAR, SPEC]);
  const image = (labels: Record<string, string>) => ({ image: { name: 'ref', labels, target: index.descriptor, created_at: null } });
  const reads = { 'content.Info': () => ({ info: { size: index.bytes.length } }), 'content.Read': () => [{ offset: 0, data: index.bytes }] };

  it('deletes the image with synchronous collection of its blobs', async () => {
    const conn = new FakeConnection({ 'images.Get': () => image({ [CHECKPOINT_LABEL]: 'true' }), ...reads });
    expect(await deleteCheckpoint(conn.as(), 'ref')).toBe(true);
    expect(conn.calls.at(-1)).toMatchObject({ call: 'images.Delete', request: { name: 'ref', sync: true } });
  });

  it('is false when the image is gone, and refuses an image that is not a checkpoint', async () => {
    const gone = new FakeConnection({
      'images.Get': () => {
        throw grpcError(5, 'image "ref": not found');
      },
    });
    expect(await deleteCheckpoint(gone.as(), 'ref')).toBe(false);
    const app = new FakeConnection({ 'images.Get': () => image({}), ...reads });
    await expect(deleteCheckpoint(app.as(), 'ref')).rejects.toMatchObject({ type: 'Invalid' });
    expect(app.names).not.toContain('images.Delete');
  });
});
