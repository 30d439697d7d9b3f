import { describe, expect, it } from 'vitest';
import { checkpointIndex, encodeAnyBytes, MEDIA_TYPE, packSpec, unpackRunc, unpackSpec } from './encoding.ts';
import { restoreTask } from './restore.ts';
import { defaultSpec } from './spec.ts';
import { FakeConnection, grpcError } from './testing/fake-connection.ts';
import type { Any, Descriptor } from './wire.ts';

// Restore cannot run end to end where CRIU cannot dump (no real checkpoint to restore); these pin down
// the requests it makes, which test/containerd/ also drives against a real containerd up to CRIU.
const spec = defaultSpec({ namespace: 'k8s.io', id: 'counter', rootPath: '/rootfs/counter', args: ['/bin/sh'] });
const config = encodeAnyBytes(packSpec(spec));
const TAR: Descriptor = { media_type: MEDIA_TYPE.checkpoint, digest: `sha256:${'a'.repeat(64)}`, size: 5000 };
const SPEC: Descriptor = { media_type: MEDIA_TYPE.checkpointConfig, digest: `sha256:${'b'.repeat(64)}`, size: config.length };
const index = checkpointIndex([TAR, SPEC]);
const blobs: Record<string, Buffer> = { [index.descriptor.digest]: index.bytes, [SPEC.digest]: config };

function daemon(overrides: Record<string, (r: Record<string, unknown>) => unknown> = {}) {
  let container: Record<string, unknown> | undefined;
  return new FakeConnection({
    'images.Get': () => ({ image: { name: 'ref', labels: {}, target: index.descriptor, created_at: null } }),
    'content.Info': (r) => ({ info: { size: blobs[r.digest as string]!.length } }),
    'content.Read': (r) => [{ offset: 0, data: blobs[r.digest as string] }],
    'containers.Create': (r) => ({ container: (container = r.container as Record<string, unknown>) }),
    'containers.Get': () => ({ container }),
    'snapshots.Mounts': () => ({ mounts: [{ type: 'bind', source: '/snap/1', target: '', options: ['rbind', 'rw'] }] }),
    'tasks.Get': () => ({ process: { id: 'restored', container_id: '', pid: 77, status: 'RUNNING', exit_status: 0, exited_at: null } }),
    ...overrides,
  });
}

describe('restoreTask', () => {
  it('creates a container with the checkpointed spec and a task from the criu tar, then starts it', async () => {
    const conn = daemon();
    const task = await restoreTask(conn.as(), 'ref', { containerId: 'restored', workPath: '/criu-work', runtime: { runcRoot: '/state/runc' } });
    expect(task).toEqual({ containerId: 'restored', pid: 77, status: 'RUNNING' });
    expect(conn.names).toEqual([
      'leases.Create',
      'images.Get',
      'content.Info',
      'content.Read',
      'content.Info',
      'content.Read',
      'containers.Create',
      'containers.Get',
      'tasks.Create',
      'tasks.Start',
      'tasks.Get',
      'leases.Delete',
    ]);
    const container = conn.calls[6]!.request.container as { id: string; spec: Any; runtime: { name: string; options: Any }; snapshot_key: string };
    expect(container.id).toBe('restored');
    expect(unpackSpec(container.spec)).toEqual(spec); // root path kept: the checkpointed container's folder
    expect(container.runtime.name).toBe('io.containerd.runc.v2');
    expect(unpackRunc(container.runtime.options)).toMatchObject({ root: '/state/runc' });
    expect(container.snapshot_key).toBe('');
    const create = conn.calls[8]!.request;
    expect(create).toMatchObject({ container_id: 'restored', rootfs: [], checkpoint: TAR, stdin: '', stdout: 'file:///dev/null', stderr: 'file:///dev/null', terminal: false });
    expect(unpackRunc(create.options as Any)).toMatchObject({ criuWorkPath: '/criu-work' });
  });

  it('restores onto a fresh snapshot of the image when given one, with its mounts as the root file system', async () => {
    const conn = daemon();
    await restoreTask(conn.as(), 'ref', { containerId: 'restored', rootfs: { snapshotter: 'overlayfs', parent: 'sha256:chain' } });
    expect(conn.calls.find((c) => c.call === 'snapshots.Prepare')?.request).toEqual({ snapshotter: 'overlayfs', key: 'restored', parent: 'sha256:chain', labels: {} });
    const container = conn.calls.find((c) => c.call === 'containers.Create')!.request.container as { spec: Any; snapshotter: string; snapshot_key: string };
    expect(container).toMatchObject({ snapshotter: 'overlayfs', snapshot_key: 'restored' });
    expect((unpackSpec(container.spec).root as { path: string }).path).toBe('rootfs');
    expect(conn.calls.find((c) => c.call === 'tasks.Create')!.request.rootfs).toEqual([{ type: 'bind', source: '/snap/1', target: '', options: ['rbind', 'rw'] }]);
  });

  it('fails as CheckpointFailed when CRIU cannot restore, and removes the task, container and snapshot it made', async () => {
    const message = 'OCI runtime restore failed: criu failed: type RESTORE errno 0\nlog file: /nonexistent/restore.log: unknown';
    const conn = daemon({
      'tasks.Start': () => {
        throw grpcError(2, message);
      },
    });
    const err = await restoreTask(conn.as(), 'ref', { containerId: 'restored', rootfs: { snapshotter: 'native' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'CheckpointFailed', retryable: false, criuLog: message });
    const after = conn.names.slice(conn.names.indexOf('tasks.Start') + 1);
    expect(after).toEqual(['tasks.Delete', 'tasks.Delete', 'containers.Get', 'containers.Delete', 'snapshots.Remove', 'leases.Delete']);
  });

  it('refuses an image without a criu checkpoint', async () => {
    const plain = checkpointIndex([SPEC]);
    const conn = daemon({
      'images.Get': () => ({ image: { name: 'ref', labels: {}, target: plain.descriptor, created_at: null } }),
      'content.Info': () => ({ info: { size: plain.bytes.length } }),
      'content.Read': () => [{ offset: 0, data: plain.bytes }],
    });
    await expect(restoreTask(conn.as(), 'ref', { containerId: 'r' })).rejects.toMatchObject({ type: 'Invalid', detail: 'image ref holds no criu checkpoint' });
    expect(conn.names).not.toContain('containers.Create');
  });
});
