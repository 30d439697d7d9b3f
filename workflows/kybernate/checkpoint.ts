import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { nodeTaskQueue } from '../../api/kybernate/constants.ts';
import type { CheckpointActivities, CheckpointPhase, CheckpointStatusInput, NodeActivities } from '../../contract/kybernate-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { ACTIVITY_RETRY, KUBE_ACTIVITY_TIMEOUT } from '../engine/activity-options.ts';
import { deletionDeadline, untilDeadline } from '../engine/deletion-deadline.ts';
import { toMs } from '../engine/durations.ts';
import { freshView, ObjectReconciler, type ObjectInput } from '../engine/object-reconciler.ts';
import { reconcileLoop, type PassEnd } from '../engine/reconcile-loop.ts';
import { stepError } from '../engine/step-error.ts';
import type { LoopView } from '../engine/view.ts';
import { ENGINE_DEFAULTS, type EngineSettings } from '../engine/settings.ts';
import { formatBytes } from './format-bytes.ts';

export type CheckpointStep = 'read' | 'resolve-pod' | 'checkpoint' | 'cleanup' | 'idle' | 'paused';

export interface CheckpointView extends LoopView {
  phase: CheckpointPhase | undefined;
  step: CheckpointStep;
  /**
   * The dump's outcome while its status write is pending: a pass that failed after the dump (the write
   * refused) writes it again on the next pass and never dumps again, and a deletion meanwhile still
   * finds the image to delete.
   */
  outcome?: CheckpointStatusInput;
}

export type CheckpointInput = ObjectInput<CheckpointView>;

const cluster = proxyLocalActivities<CheckpointActivities>({ startToCloseTimeout: KUBE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

/**
 * The node's activities, on its own task queue: the worker there holds the containerd socket. Waiting
 * for that worker is bounded (a node without one fails the step as unavailable, it does not hang), each
 * attempt by `startToCloseMs` with heartbeats, all attempts together by `scheduleToCloseMs` when given,
 * and an activity is tried at most twice (the node worker never dumps an exited task a second time).
 */
function node(settings: EngineSettings, nodeName: string, timeouts: { startToCloseMs: number; scheduleToCloseMs?: number; scheduleToStartMs?: number }): NodeActivities {
  return proxyActivities<NodeActivities>({
    taskQueue: nodeTaskQueue(settings.taskQueuePrefix, nodeName),
    scheduleToStartTimeout: timeouts.scheduleToStartMs ?? settings.providerScheduleToStart,
    startToCloseTimeout: timeouts.startToCloseMs,
    ...(timeouts.scheduleToCloseMs !== undefined ? { scheduleToCloseTimeout: timeouts.scheduleToCloseMs } : {}),
    heartbeatTimeout: '15s',
    // A dump the runtime refused (CRIU failed, the task not running, no such container) is not tried
    // again: those Containerd* types are permanent in contract/failure-types.ts, so ACTIVITY_RETRY says so.
    retry: { ...ACTIVITY_RETRY, maximumAttempts: 2 },
  });
}

/**
 * One KybernateCheckpoint (seed 003): resolve the pod (missing or not running: Failed, no node call),
 * InProgress, the dump on the pod's node, then Completed with the checkpoint image's name and size, or
 * Failed with the runtime's message. One-shot: a terminal phase stays. Deletion removes the image on
 * its node (bounded, like every cleanup here) before the finalizer goes.
 */
export async function kybernateCheckpointWorkflow(input: CheckpointInput): Promise<CheckpointView> {
  return reconcileLoop(new CheckpointReconciler(input));
}

class CheckpointReconciler extends ObjectReconciler<CheckpointView> {
  constructor(input: CheckpointInput) {
    super(input, input.carried ?? { ...freshView(input.ref, 'read'), phase: undefined, step: 'read' }, ENGINE_DEFAULTS);
  }

  async runPass(): Promise<PassEnd> {
    const { view } = this;
    this.at('read');
    const cp = await cluster.assessCheckpoint(this.readRef());
    if (!cp.found) return { done: true };
    const ref: ReadRef = { ...this.input.ref, seenVersion: cp.resourceVersion };
    view.observedGeneration = cp.generation;
    view.phase = cp.phase ?? view.phase;
    if (cp.deleting) {
      if (cp.hasFinalizer) await this.cleanup(ref, cp.checkpointRef ?? view.outcome?.checkpointRef, cp.nodeName ?? view.outcome?.nodeName, cp.deletionTimestamp);
      return { done: true };
    }
    if (cp.paused) return this.wait('paused', 'the pause annotation to be removed');
    if (cp.invalid) {
      await this.report(ref, { phase: 'Failed', message: cp.invalid, ready: { status: 'False', reason: 'InvalidSpec', message: cp.invalid } });
      return this.wait('idle', 'a valid spec');
    }
    // One-shot: a checkpoint that completed or failed stays so (a new one is a new object).
    if (cp.phase === 'Completed' || cp.phase === 'Failed') {
      view.outcome = undefined;
      return this.wait('idle', undefined);
    }
    // The dump happened, its status write did not: write it, never dump again.
    if (view.outcome) return this.finish(ref, view.outcome);

    this.at('resolve-pod');
    const pod = await cluster.resolveCheckpointPod(ref);
    if (!pod.ok) {
      await this.report(ref, { phase: 'Failed', message: pod.message, ready: { status: 'False', reason: pod.reason, message: pod.message } });
      return this.wait('idle', undefined);
    }
    const startTime = new Date().toISOString();
    const where = { nodeName: pod.nodeName, containerID: pod.containerId, startTime };
    await this.report(ref, { phase: 'InProgress', message: `Checkpointing container ${pod.containerName} on node ${pod.nodeName}`, ...where, ready: { status: 'False', reason: 'InProgress', message: 'Checkpoint in progress' } });

    this.at('checkpoint', `node ${pod.nodeName} to dump container ${pod.containerName}`);
    const timeoutSeconds = cp.timeoutSeconds ?? 300;
    // spec.timeout bounds the dump as a whole: an attempt that timed out (and may have half happened) is
    // not followed by a second one; a quick retryable failure or a lost node worker is, within it.
    const timeoutMs = timeoutSeconds * 1_000;
    const timeouts = { startToCloseMs: timeoutMs, scheduleToCloseMs: timeoutMs, scheduleToStartMs: Math.min(toMs(this.settings.providerScheduleToStart), timeoutMs) };
    let outcome: CheckpointStatusInput;
    try {
      const result = await node(this.settings, pod.nodeName, timeouts).checkpointContainer({
        containerId: pod.containerId,
        leaveRunning: cp.leaveRunning ?? true,
        ...(cp.gpuPluginPath ? { gpuPluginPath: cp.gpuPluginPath } : {}),
      });
      const size = formatBytes(result.size);
      outcome = {
        phase: 'Completed',
        message: `Checkpoint ${result.ref} (${size})`,
        ...where,
        checkpointRef: result.ref,
        checkpointSize: size,
        completionTime: new Date().toISOString(),
        ready: { status: 'True', reason: 'Completed', message: 'Checkpoint completed' },
      };
    } catch (err) {
      const failure = stepError('checkpoint', err, `The node worker of '${pod.nodeName}'`);
      const message = failure.type.startsWith('Timeout') ? `Checkpoint timed out after ${timeoutSeconds}s` : failure.message;
      outcome = { phase: 'Failed', message, ...where, completionTime: new Date().toISOString(), ready: { status: 'False', reason: failure.type, message } };
    }
    return this.finish(ref, outcome);
  }

  /** Writes the dump's outcome, kept in the view until the write succeeded (see CheckpointView.outcome). */
  private async finish(ref: ReadRef, outcome: CheckpointStatusInput): Promise<PassEnd> {
    this.view.outcome = outcome;
    await this.report(ref, outcome);
    this.view.outcome = undefined;
    return this.wait('idle', undefined);
  }

  /**
   * Removes the image on its node before the finalizer, trying again every poll interval (or on a
   * signal); at the deadline the finalizer goes anyway, with an event.
   */
  private async cleanup(ref: ReadRef, image: string | undefined, nodeName: string | undefined, deletionTimestamp: string | undefined): Promise<void> {
    this.view.phase = undefined;
    if (image && nodeName) {
      const deadline = deletionDeadline(deletionTimestamp, this.settings.cleanupTimeout);
      let failure: unknown;
      const deleted = await untilDeadline(this, {
        deadline,
        pollMs: toMs(this.settings.pollInterval),
        attempt: async () => {
          this.at('cleanup', `node ${nodeName} to delete ${image}`);
          try {
            await node(this.settings, nodeName, { startToCloseMs: 60_000, scheduleToStartMs: Math.max(deadline - Date.now(), 1_000) }).deleteCheckpointImage({ ref: image });
            return true;
          } catch (err) {
            failure = err;
            return false;
          }
        },
      });
      if (!deleted) {
        const why = stepError('cleanup', failure, `The node worker of '${nodeName}'`).message;
        await cluster.recordCheckpointEvent(ref, { type: 'Warning', reason: 'FinalizerTimeout', message: `Could not delete checkpoint image ${image} on node ${nodeName} (${why}); it may be left behind` });
      }
    }
    this.at('cleanup', 'finalizer removal');
    await cluster.removeCheckpointFinalizer(ref);
  }

  private async report(ref: ReadRef, status: CheckpointStatusInput): Promise<void> {
    this.view.phase = status.phase;
    this.view.message = status.message;
    await cluster.writeCheckpointStatus(ref, status);
  }
}
