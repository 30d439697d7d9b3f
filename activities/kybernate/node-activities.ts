import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { Context } from '@temporalio/activity';
import type { ApplicationFailure } from '@temporalio/common';
import { activityFailure } from '../../contract/failure-types.ts';
import type { ContainerdClient } from '../../containerd/client.ts';
import { classifyContainerdError, toContainerdActivityFailure } from '../../containerd/errors.ts';
import type { NodeActivities } from '../../contract/kybernate-activities.ts';

/** How often a running dump tells Temporal it is alive (its heartbeat timeout is 15 s). */
const HEARTBEAT_MS = 5_000;

/**
 * The activities of one node's worker, which holds that node's containerd socket. A dump is never
 * repeated on an exited task (the client refuses a task that is not running or paused), and a
 * cancelled activity (its timeout, the workflow's cancellation) aborts the call.
 */
export function createNodeActivities(containerd: Pick<ContainerdClient, 'checkpoint' | 'deleteCheckpoint'>): NodeActivities {
  return {
    async checkpointContainer(input) {
      if (input.gpuPluginPath) await requireGpuPlugin(input.gpuPluginPath);
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), HEARTBEAT_MS);
      try {
        const image = await containerd.checkpoint(input.containerId, { exit: !input.leaveRunning, signal: ctx.cancellationSignal });
        return { ref: image.ref, size: image.size };
      } catch (err) {
        throw dumpFailure(err, `checkpoint container ${input.containerId}`);
      } finally {
        clearInterval(beat);
      }
    },

    async deleteCheckpointImage(input) {
      try {
        return { deleted: await containerd.deleteCheckpoint(input.ref) };
      } catch (err) {
        throw toContainerdActivityFailure(err, `delete checkpoint image ${input.ref}`);
      }
    },
  };
}

/** The file CRIU's CUDA plugin is built as (CRIU 4: plugins/cuda). */
export const CUDA_PLUGIN = 'cuda_plugin.so';

/**
 * CRIU loads its plugins from one directory, chosen where CRIU runs (containerd's runc), not per dump:
 * the node worker cannot point a dump at spec.gpu.pluginPath, only refuse one whose plugin is not there
 * instead of dumping a GPU process without it (which fails deep inside CRIU, or checkpoints no GPU state).
 */
async function requireGpuPlugin(dir: string): Promise<void> {
  const plugin = join(dir, CUDA_PLUGIN);
  try {
    await access(plugin);
  } catch {
    throw activityFailure(
      'GpuPluginMissing',
      `spec.gpu.pluginPath: CRIU's CUDA plugin is not at ${plugin} on this node. Mount the plugin directory into the node worker at that path, ` +
        `and have containerd's CRIU load plugins from it (CRIU_LIBS_DIR in containerd's environment, or libdir in /etc/criu/runc.conf)`,
    );
  }
}

/**
 * A failed dump quotes CRIU's own error lines in its message: runc's message only names the log, which
 * is on this node, and the message is what the checkpoint's status shows (`… criu failed: type DUMP …
 * path= …/criu-dump.log: unknown; CRIU: Error (criu/vdso.c:381): vdso: Unexpected rt vDSO area bounds; …`).
 */
function dumpFailure(err: unknown, action: string): ApplicationFailure {
  const failure = toContainerdActivityFailure(err, action);
  const c = classifyContainerdError(err);
  if (c.type !== 'CheckpointFailed' || !c.criuLog || c.criuLog === c.detail) return failure;
  const lines = c.criuLog
    .split('\n')
    .map((l) => l.replace(/^\(\d+\.\d+\)\s*/, '').trim())
    .filter(Boolean);
  return activityFailure(c.failureType, `${failure.message}; CRIU: ${lines.join('; ')}`, failure.details ?? undefined);
}
