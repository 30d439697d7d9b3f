import type { CallOptions, Connection } from './connection.ts';
import { classifyContainerdError, ContainerdError } from './errors.ts';
import { packRuncOptions, packSpec } from './encoding.ts';
import { defaultSpec } from './spec.ts';
import type { Container, Mount } from './wire.ts';

// Containers: containerd's record of what to run (spec, runtime, root file system). A container has at
// most one task; deleting it needs the task deleted first.

export const RUNC_RUNTIME = 'io.containerd.runc.v2';

/** A root file system from a snapshot: a fresh active snapshot on top of `parent` (none: empty). */
export interface SnapshotRootfs {
  snapshotter: string;
  /** A committed snapshot, e.g. an unpacked image's chain id. */
  parent?: string;
  /** The active snapshot's key (default: the container id). */
  key?: string;
}

export interface RuntimeOptions {
  /** Default io.containerd.runc.v2. */
  name?: string;
  /** runc's state folder (a private one keeps a test's containers apart from a system containerd's). */
  runcRoot?: string;
  runcBinary?: string;
}

export interface ContainerOptions {
  /** A host folder (the spec's root path), or a snapshot. */
  rootfs: string | SnapshotRootfs;
  /** The process of the default spec (containerd/spec.ts); ignored when `spec` is given. */
  args?: string[];
  env?: string[];
  cwd?: string;
  /** A whole OCI runtime spec instead of the default one; its root path is set from `rootfs`. */
  spec?: Record<string, unknown>;
  labels?: Record<string, string>;
  runtime?: RuntimeOptions;
}

function runtimeOf(opts: RuntimeOptions | undefined): Container['runtime'] {
  const options = opts?.runcRoot || opts?.runcBinary ? packRuncOptions({ root: opts.runcRoot, binaryName: opts.runcBinary }) : null;
  return { name: opts?.name ?? RUNC_RUNTIME, options };
}

export function withRootPath(spec: Record<string, unknown>, rootfs: string | SnapshotRootfs): Record<string, unknown> {
  // A snapshot is mounted at the bundle's rootfs folder by the shim; a host folder is used where it is.
  const root = { ...((spec.root as object | undefined) ?? {}), path: typeof rootfs === 'string' ? rootfs : 'rootfs' };
  return { ...spec, root };
}

/** The container record for Containers.Create (pure; the snapshot, if any, is prepared by the caller). */
export function containerRecord(namespace: string, id: string, opts: ContainerOptions): Partial<Container> {
  if (!opts.spec && !opts.args) throw new ContainerdError('Invalid', undefined, `container ${id}: neither a spec nor args`);
  const base = opts.spec ?? defaultSpec({ namespace, id, args: opts.args!, env: opts.env, cwd: opts.cwd });
  const spec = withRootPath(base, opts.rootfs);
  const snapshot = typeof opts.rootfs === 'string' ? undefined : opts.rootfs;
  return {
    id,
    labels: opts.labels ?? {},
    image: '',
    runtime: runtimeOf(opts.runtime),
    spec: packSpec(spec),
    snapshotter: snapshot?.snapshotter ?? '',
    snapshot_key: snapshot ? (snapshot.key ?? id) : '',
  };
}

/**
 * Creates the container (and its active snapshot when the root file system is one); a failed create
 * removes the snapshot again. Call with a lease when the snapshot's parent is only leased.
 */
export async function createContainer(conn: Connection, id: string, opts: ContainerOptions, call: CallOptions = {}): Promise<void> {
  const record = containerRecord(conn.namespace, id, opts);
  if (record.snapshot_key) {
    await conn.unary('snapshots', 'Prepare', { snapshotter: record.snapshotter, key: record.snapshot_key, parent: (opts.rootfs as SnapshotRootfs).parent ?? '', labels: {} }, call);
  }
  try {
    await conn.unary('containers', 'Create', { container: record }, call);
  } catch (err) {
    if (record.snapshot_key) await conn.unary('snapshots', 'Remove', { snapshotter: record.snapshotter, key: record.snapshot_key }).catch(() => undefined);
    throw err;
  }
}

export async function getContainer(conn: Connection, id: string, opts: CallOptions = {}): Promise<Container | undefined> {
  try {
    return (await conn.unary<{ container: Container }>('containers', 'Get', { id }, opts)).container;
  } catch (err) {
    if (classifyContainerdError(err).type === 'NotFound') return undefined;
    throw err;
  }
}

/** The mounts a task of this container needs: its snapshot's, or none for a host-folder root. */
export async function rootfsMounts(conn: Connection, container: Container, opts: CallOptions = {}): Promise<Mount[]> {
  if (!container.snapshot_key) return [];
  const res = await conn.unary<{ mounts: Mount[] }>('snapshots', 'Mounts', { snapshotter: container.snapshotter, key: container.snapshot_key }, opts);
  return res.mounts;
}

/** Deletes the container and its snapshot; false when there was no such container. */
export async function deleteContainer(conn: Connection, id: string, opts: CallOptions = {}): Promise<boolean> {
  const container = await getContainer(conn, id, opts);
  if (!container) return false;
  try {
    await conn.unary('containers', 'Delete', { id }, opts);
  } catch (err) {
    if (classifyContainerdError(err).type !== 'NotFound') throw err;
  }
  if (container.snapshot_key) {
    try {
      await conn.unary('snapshots', 'Remove', { snapshotter: container.snapshotter, key: container.snapshot_key }, opts);
    } catch (err) {
      if (classifyContainerdError(err).type !== 'NotFound') throw err;
    }
  }
  return true;
}
