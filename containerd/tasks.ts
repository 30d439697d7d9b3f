import type { CallOptions, Connection } from './connection.ts';
import { classifyContainerdError, ContainerdError } from './errors.ts';
import { timestampToIso, type CreateTaskRequest, type DeleteResponseWire, type Process } from './wire.ts';

// A container's task: its running process, as containerd's runtime (runc through its shim) runs it.

export type TaskStatus = 'CREATED' | 'RUNNING' | 'PAUSED' | 'PAUSING' | 'STOPPED' | 'UNKNOWN';

export interface TaskState {
  containerId: string;
  /** The process id on the node (0 before it starts). */
  pid: number;
  status: TaskStatus;
  /** Set once the task has stopped. */
  exitStatus?: number;
  exitedAt?: string;
}

/**
 * Stdio of the tasks this client starts: the shim opens this file for their output and gives them
 * pipes. Not /dev/null itself (what empty paths give): CRIU cannot dump a descriptor of a host file
 * whose mount is outside the container, while pipes to the shim are what runc dumps and restores.
 */
export const TASK_OUTPUT = 'file:///dev/null';

export function toTaskState(p: Process, containerId: string): TaskState {
  // containerd names the container in `id` (the init process's id) and leaves container_id empty.
  const state: TaskState = { containerId: p.container_id || p.id || containerId, pid: p.pid, status: p.status };
  if (p.status === 'STOPPED') {
    state.exitStatus = p.exit_status;
    const at = timestampToIso(p.exited_at);
    if (at) state.exitedAt = at;
  }
  return state;
}

/** The container's task, or undefined when it has none (never started, or deleted). */
export async function findTask(conn: Connection, containerId: string, opts: CallOptions = {}): Promise<TaskState | undefined> {
  try {
    const res = await conn.unary<{ process: Process }>('tasks', 'Get', { container_id: containerId }, opts);
    return toTaskState(res.process, containerId);
  } catch (err) {
    if (classifyContainerdError(err).type === 'NotFound') return undefined;
    throw err;
  }
}

export async function requireTask(conn: Connection, containerId: string, opts: CallOptions = {}): Promise<TaskState> {
  const task = await findTask(conn, containerId, opts);
  if (!task) throw new ContainerdError('NotFound', undefined, `container ${containerId} has no task`);
  return task;
}

/** The task request this client sends: output to TASK_OUTPUT, no terminal, no stdin. */
export function createTaskRequest(containerId: string, extra: Partial<CreateTaskRequest> = {}): CreateTaskRequest {
  return { container_id: containerId, rootfs: [], stdin: '', stdout: TASK_OUTPUT, stderr: TASK_OUTPUT, terminal: false, ...extra };
}

/** Creates and starts the container's task (restored from `checkpoint` when the request has one). */
export async function createAndStartTask(conn: Connection, request: CreateTaskRequest, opts: CallOptions = {}): Promise<TaskState> {
  await conn.unary('tasks', 'Create', request, opts);
  try {
    await conn.unary('tasks', 'Start', { container_id: request.container_id, exec_id: '' }, opts);
  } catch (err) {
    // A task that never started is of no use and would block the container's deletion.
    await conn.unary('tasks', 'Delete', { container_id: request.container_id }).catch(() => undefined);
    throw err;
  }
  return requireTask(conn, request.container_id, opts);
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGUSR1: 10, SIGUSR2: 12, SIGTERM: 15 };

export function signalNumber(signal: string | number): number {
  if (typeof signal === 'number') return signal;
  const n = SIGNALS[signal];
  if (n === undefined) throw new ContainerdError('Invalid', undefined, `unknown signal ${signal}`);
  return n;
}

export async function killTask(conn: Connection, containerId: string, signal: string | number = 'SIGKILL', opts: CallOptions & { all?: boolean } = {}): Promise<void> {
  await conn.unary('tasks', 'Kill', { container_id: containerId, exec_id: '', signal: signalNumber(signal), all: opts.all ?? true }, opts);
}

/** Waits until the task has exited; its exit status. */
export async function waitTask(conn: Connection, containerId: string, opts: CallOptions = {}): Promise<number> {
  const res = await conn.unary<{ exit_status: number }>('tasks', 'Wait', { container_id: containerId, exec_id: '' }, opts);
  return res.exit_status;
}

/** Deletes a stopped task; its exit status, or undefined when there was no task. */
export async function deleteTask(conn: Connection, containerId: string, opts: CallOptions = {}): Promise<number | undefined> {
  try {
    const res = await conn.unary<DeleteResponseWire>('tasks', 'Delete', { container_id: containerId }, opts);
    return res.exit_status;
  } catch (err) {
    if (classifyContainerdError(err).type === 'NotFound') return undefined;
    throw err;
  }
}
