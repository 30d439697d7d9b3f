import { proxyLocalActivities } from '@temporalio/workflow';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { RestoreActivities, RestoreAssessment, RestorePhase, RestoreStatusInput } from '../../contract/kybernate-restore-activities.ts';
import { ACTIVITY_RETRY, KUBE_ACTIVITY_TIMEOUT } from '../engine/activity-options.ts';
import { toMs } from '../engine/durations.ts';
import { freshView, ObjectReconciler, type ObjectInput } from '../engine/object-reconciler.ts';
import { ENGINE_DEFAULTS } from '../engine/settings.ts';
import { reconcileLoop, type PassEnd } from '../engine/reconcile-loop.ts';
import type { LoopView } from '../engine/view.ts';

export type RestoreStep = 'read' | 'resolve-source' | 'pod' | 'idle' | 'paused';

export interface RestoreView extends LoopView {
  phase: RestorePhase | undefined;
  step: RestoreStep;
  restoredPodName?: string;
  restoredPodUID?: string;
  /** When the pod was first seen running: written once, kept after. */
  restoreTime?: string;
}

export type RestoreInput = ObjectInput<RestoreView>;

const cluster = proxyLocalActivities<RestoreActivities>({ startToCloseTimeout: KUBE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

/** The seed's default, should the assessment not carry spec.timeout. */
const DEFAULT_TIMEOUT_SECONDS = 600;

/**
 * One KybernateRestore (seed 003, restore variant C): wait (Pending) for its checkpoint to complete,
 * then create a pod annotated with the checkpoint image, owned by the restore, for the node runtime to
 * restore (Restoring), and report Running once the pod is ready. spec.timeout bounds all of it from the
 * restore's creation. Failed stays. Deletion needs nothing: the garbage collector removes the pod.
 */
export async function kybernateRestoreWorkflow(input: RestoreInput): Promise<RestoreView> {
  return reconcileLoop(new RestoreReconciler(input));
}

class RestoreReconciler extends ObjectReconciler<RestoreView> {
  constructor(input: RestoreInput) {
    super(input, input.carried ?? { ...freshView(input.ref, 'read'), phase: undefined, step: 'read' }, ENGINE_DEFAULTS);
  }

  async runPass(): Promise<PassEnd> {
    const { view } = this;
    this.at('read');
    const restore = await cluster.assessRestore(this.readRef());
    if (!restore.found || restore.deleting) return { done: true };
    const ref: ReadRef = { ...this.input.ref, seenVersion: restore.resourceVersion };
    view.observedGeneration = restore.generation;
    view.phase = restore.phase ?? view.phase;
    view.restoreTime ??= restore.restoreTime;
    if (restore.paused) return this.wait('paused', 'the pause annotation to be removed');
    if (restore.invalid) {
      await this.report(ref, { phase: 'Failed', message: restore.invalid, ready: { status: 'False', reason: 'InvalidSpec', message: restore.invalid } });
      return this.wait('idle', 'a valid spec');
    }
    // A failed restore stays failed (a new one is a new object); its pod, if any, is left for inspection.
    if (restore.phase === 'Failed') return this.wait('idle', undefined);

    const timeoutSeconds = restore.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    const leftMs = this.deadline(restore, timeoutSeconds) - Date.now();

    this.at('resolve-source');
    const source = await cluster.resolveRestoreSource(ref);
    if (!source.ready) {
      if (source.failed) return this.fail(ref, source.reason, source.message);
      if (leftMs <= 0) return this.fail(ref, 'Timeout', `Timed out after ${timeoutSeconds}s waiting for checkpoint ${restore.checkpointRef ?? ''} to complete`);
      await this.report(ref, { phase: 'Pending', message: source.message, ready: { status: 'False', reason: source.reason, message: source.message } });
      // Checkpoint changes wake the restore (the watcher's related watch); the poll bounds a missed one.
      return this.wait('resolve-source', `checkpoint ${restore.checkpointRef ?? ''} to complete`, Math.min(toMs(this.settings.pollInterval), leftMs));
    }

    this.at('pod', 'the restore pod');
    const pod = await cluster.applyRestorePod(ref, source);
    // Someone else's pod of that name is never reported as ours.
    if (pod.reason === 'PodExists') return this.fail(ref, pod.reason, pod.message ?? `Pod ${ref.namespace}/${pod.podName} exists`);
    view.restoredPodName = pod.podName;
    view.restoredPodUID = pod.podUID;
    if (pod.reason) return this.fail(ref, pod.reason, pod.message ?? `Pod ${ref.namespace}/${pod.podName} failed`);
    if (pod.ready) {
      view.restoreTime ??= new Date().toISOString();
      const message = `Pod ${pod.podName} restored from ${source.checkpointImage}`;
      await this.report(ref, { phase: 'Running', message, ...this.podFields(), ready: { status: 'True', reason: 'Running', message: 'Restored pod is running' } });
      return this.wait('idle', undefined);
    }
    // The pod's changes wake the restore (a watched child); the deadline bounds the wait below.
    const waitingFor = `pod ${pod.podName} to run`;
    if (view.restoreTime) {
      // It ran: the restore happened, and a pod that stops being ready is the pod's business, not a timeout.
      const message = `Pod ${pod.podName} is not ready`;
      await this.report(ref, { phase: 'Running', message, ...this.podFields(), ready: { status: 'False', reason: 'PodNotReady', message } });
      return this.wait('pod', waitingFor);
    }
    if (leftMs <= 0) return this.fail(ref, 'Timeout', `Timed out after ${timeoutSeconds}s waiting for pod ${pod.podName} to run`);
    const message = `Restoring pod ${pod.podName} from ${source.checkpointImage}`;
    await this.report(ref, { phase: 'Restoring', message, ...this.podFields(), ready: { status: 'False', reason: 'Restoring', message } });
    return this.wait('pod', waitingFor, Math.min(this.resyncMs(), leftMs));
  }

  /** spec.timeout counts from the restore's creation (from now when the creation time is unknown). */
  private deadline(restore: RestoreAssessment, timeoutSeconds: number): number {
    const created = restore.createdAt ? Date.parse(restore.createdAt) : NaN;
    return (Number.isNaN(created) ? Date.now() : created) + timeoutSeconds * 1_000;
  }

  private podFields(): Pick<RestoreStatusInput, 'restoredPodName' | 'restoredPodUID' | 'restoreTime'> {
    const { restoredPodName, restoredPodUID, restoreTime } = this.view;
    return { ...(restoredPodName ? { restoredPodName } : {}), ...(restoredPodUID ? { restoredPodUID } : {}), ...(restoreTime ? { restoreTime } : {}) };
  }

  private async fail(ref: ReadRef, reason: string, message: string): Promise<PassEnd> {
    await this.report(ref, { phase: 'Failed', message, ...this.podFields(), ready: { status: 'False', reason, message } });
    return this.wait('idle', undefined);
  }

  private async report(ref: ReadRef, status: RestoreStatusInput): Promise<void> {
    this.view.phase = status.phase;
    this.view.message = status.message;
    await cluster.writeRestoreStatus(ref, status);
  }
}
