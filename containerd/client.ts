import { checkpointTask, deleteCheckpoint, getCheckpoint, listCheckpoints, type CheckpointImage, type CheckpointOptions } from './checkpoint.ts';
import { Connection, type ConnectionOptions } from './connection.ts';
import { createContainer, deleteContainer, getContainer, rootfsMounts, type ContainerOptions } from './containers.ts';
import { ContainerdError } from './errors.ts';
import { restoreTask, type RestoreOptions } from './restore.ts';
import { createAndStartTask, createTaskRequest, deleteTask, findTask, killTask, waitTask, type TaskState } from './tasks.ts';

/**
 * containerd over its gRPC socket, in one namespace: what the Kybernate node worker does to containers
 * (find a task, pause and resume it, checkpoint it into an image, delete the image, restore a task from
 * it), and what tests need to make containers to do that to. Every failure is a ContainerdError.
 */
export class ContainerdClient {
  readonly connection: Connection;

  constructor(opts: ConnectionOptions) {
    this.connection = new Connection(opts);
  }

  get namespace(): string {
    return this.connection.namespace;
  }

  async version(): Promise<{ version: string; revision: string }> {
    return this.connection.unary<{ version: string; revision: string }>('version', 'Version', {});
  }

  /** The container's task (status and pid), or undefined when it has none. */
  findTask(containerId: string): Promise<TaskState | undefined> {
    return findTask(this.connection, containerId);
  }

  /** Freezes the task's processes (cgroup freezer): PAUSED. */
  async pause(containerId: string): Promise<void> {
    await this.connection.unary('tasks', 'Pause', { container_id: containerId });
  }

  async resume(containerId: string): Promise<void> {
    await this.connection.unary('tasks', 'Resume', { container_id: containerId });
  }

  /** Dumps the task into a checkpoint image (see checkpoint.ts); `exit: true` stops it after the dump. */
  checkpoint(containerId: string, opts: CheckpointOptions = {}): Promise<CheckpointImage> {
    return checkpointTask(this.connection, containerId, opts);
  }

  getCheckpoint(ref: string): Promise<CheckpointImage | undefined> {
    return getCheckpoint(this.connection, ref);
  }

  listCheckpoints(containerId?: string): Promise<CheckpointImage[]> {
    return listCheckpoints(this.connection, containerId);
  }

  /** Deletes a checkpoint image and (by containerd's collection) its blobs; false when it was gone already. */
  deleteCheckpoint(ref: string): Promise<boolean> {
    return deleteCheckpoint(this.connection, ref);
  }

  /** A new container restored from a checkpoint image, started (see restore.ts). */
  restoreTask(ref: string, opts: RestoreOptions): Promise<TaskState> {
    return restoreTask(this.connection, ref, opts);
  }

  createContainer(id: string, opts: ContainerOptions): Promise<void> {
    return createContainer(this.connection, id, opts);
  }

  /** Creates and starts the container's task. */
  async startTask(containerId: string): Promise<TaskState> {
    const container = await getContainer(this.connection, containerId);
    if (!container) throw new ContainerdError('NotFound', undefined, `no container ${containerId}`);
    const rootfs = await rootfsMounts(this.connection, container);
    return createAndStartTask(this.connection, createTaskRequest(containerId, { rootfs }));
  }

  /** Signals every process of the task (default SIGKILL). */
  killTask(containerId: string, signal: string | number = 'SIGKILL'): Promise<void> {
    return killTask(this.connection, containerId, signal);
  }

  waitTask(containerId: string, timeoutMs?: number): Promise<number> {
    return waitTask(this.connection, containerId, { timeoutMs });
  }

  /** Deletes a stopped task; its exit status, or undefined when there was none. */
  deleteTask(containerId: string): Promise<number | undefined> {
    return deleteTask(this.connection, containerId);
  }

  /** Deletes the container and its snapshot; false when there was none. */
  deleteContainer(containerId: string): Promise<boolean> {
    return deleteContainer(this.connection, containerId);
  }

  /**
   * Stops and deletes the container's task (SIGKILL, bounded wait) and the container, whatever state
   * they are in; for cleanup. False when there was no container.
   */
  async removeContainer(containerId: string, timeoutMs = 10_000): Promise<boolean> {
    const task = await this.findTask(containerId);
    if (task && task.status !== 'STOPPED') {
      if (task.status === 'PAUSED' || task.status === 'PAUSING') await this.resume(containerId).catch(() => undefined);
      const waited = this.waitTask(containerId, timeoutMs).catch(() => undefined);
      await this.killTask(containerId).catch(() => undefined);
      await waited;
    }
    if (task) await this.deleteTask(containerId);
    return this.deleteContainer(containerId);
  }

  close(): void {
    this.connection.close();
  }
}
