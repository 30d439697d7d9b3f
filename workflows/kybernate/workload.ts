import { ActivityFailure, ApplicationFailure, isCancellation, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import { suspendCheckpointName } from '../../api/kybernate/constants.ts';
import type { IdleMode, WorkloadActivities, WorkloadAssessment, WorkloadPhase, WorkloadPodState, WorkloadStatusInput } from '../../contract/kybernate-workload-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { ACTIVITY_RETRY, KUBE_ACTIVITY_TIMEOUT } from '../engine/activity-options.ts';
import { toMs } from '../engine/durations.ts';
import { freshView, ObjectReconciler, type ObjectInput } from '../engine/object-reconciler.ts';
import { ENGINE_DEFAULTS } from '../engine/settings.ts';
import { reconcileLoop, type PassEnd } from '../engine/reconcile-loop.ts';
import { stepError } from '../engine/step-error.ts';
import type { LoopView } from '../engine/view.ts';
import { activitySignal, wakeSignal } from './workload-signals.ts';

export type WorkloadStep = 'read' | 'pod' | 'idle' | 'checkpoint' | 'remove-pod' | 'prune' | 'suspended' | 'paused';

/** A suspend under way: its number (the checkpoint's name) and how it goes to zero. */
export interface SuspendInProgress {
  n: number;
  mode: Exclude<IdleMode, 'never'>;
  /** Workflow time it began (ms): bounds the wait for the checkpoint. */
  since: number;
  checkpointName?: string;
  /** Decided: the checkpoint image (and the node that holds it), or why there is none (then a cold scale-to-zero). */
  image?: string;
  nodeName?: string;
  failure?: string;
}

export interface WorkloadView extends LoopView {
  phase: WorkloadPhase | undefined;
  step: WorkloadStep;
  /** Whether the workload should run now; false from the moment a suspend begins until a wake. */
  awake: boolean;
  /** A request (or a `wake`) arrived while it was not awake: wake once the suspend, if any, is over. */
  wakeRequested: boolean;
  /** Waking: the pod is created (from the checkpoint, if there is one) and the phase is Restoring until it runs. */
  waking: boolean;
  /** The last request the workflow heard of (ms, workflow time): the idle timer counts from it. */
  lastActivityMs?: number;
  /** status.lastActivityTime as last written: moved only in coarse steps. */
  lastActivityTime?: string;
  /** Suspends begun (each names its checkpoint `<workload>-suspend-<n>`). */
  suspends: number;
  /** Suspends that ended in a checkpoint. */
  suspendedCheckpoints: number;
  suspending?: SuspendInProgress;
  /** The latest suspend's checkpoint (kept; older ones are deleted), and its image when it completed. */
  checkpointName?: string;
  checkpointImage?: string;
  /** The node whose containerd holds checkpointImage: the wake's pod is pinned to it. */
  checkpointNode?: string;
  podName?: string;
  podUID?: string;
  /** Why the latest suspend fell back to a cold scale-to-zero (condition SuspendDegraded). */
  degraded?: string;
}

export type WorkloadInput = ObjectInput<WorkloadView>;

const cluster = proxyLocalActivities<WorkloadActivities>({ startToCloseTimeout: KUBE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

/** Beyond a checkpoint's own spec.timeout, how long a suspend waits for it (its node worker may be slow to pick it up). */
const CHECKPOINT_MARGIN_MS = 60_000;
/** Checkpoints of an old incarnation (or a user's) under a suspend's name are skipped, at most this many. */
const MAX_FOREIGN_CHECKPOINTS = 5;

/**
 * One KybernateWorkload (seed 003 §3.3), a long-lived workflow: it runs the workload's pod; a durable
 * idle timer (suspend.idleTimeout after the last request the activator reported) suspends it — a
 * KybernateCheckpoint of the pod, then the pod is removed (Suspended, suspendedCheckpoints + 1) — and
 * the next request wakes it (Restoring: a new pod annotated kybernate.io/restore-from with the
 * checkpoint image; Running once it is ready). A checkpoint that fails (or times out) falls back to a
 * cold scale-to-zero: the pod is removed all the same, condition SuspendDegraded says why, and the next
 * wake starts the pod fresh. Every step is idempotent: the checkpoint's name is the suspend's number.
 * Deletion needs nothing: the garbage collector removes the pod and the checkpoints it owns.
 */
export async function kybernateWorkloadWorkflow(input: WorkloadInput): Promise<WorkloadView> {
  return reconcileLoop(new WorkloadReconciler(input));
}

class WorkloadReconciler extends ObjectReconciler<WorkloadView> {
  constructor(input: WorkloadInput) {
    super(input, input.carried ?? {
      ...freshView(input.ref, 'read'),
      phase: undefined,
      step: 'read',
      awake: true,
      wakeRequested: false,
      waking: false,
      suspends: 0,
      suspendedCheckpoints: 0,
    }, ENGINE_DEFAULTS);
    // A request restarts the idle timer; a running workload needs no pass for it (its timer's pass
    // looks again), one that is not awake is woken.
    setHandler(activitySignal, ({ at }) => {
      this.heardActivity(at);
      if (!this.view.awake) this.askToWake();
    });
    setHandler(wakeSignal, ({ at }) => {
      this.heardActivity(at);
      this.askToWake();
    });
  }

  async runPass(): Promise<PassEnd> {
    const { view } = this;
    this.at('read');
    // A run that starts afresh (not continued as new) goes on from what earlier runs of it left.
    const w = await cluster.assessWorkload(this.readRef(), this.resumed ? {} : { earlier: true });
    if (w.earlier && !this.resumed) {
      view.suspends = Math.max(view.suspends, w.earlier.lastSuspend);
      view.suspendedCheckpoints = Math.max(view.suspendedCheckpoints, w.earlier.suspendedCheckpoints);
    }
    if (w.found) this.resumed = true;
    if (!w.found || w.deleting) return { done: true };
    const ref: ReadRef = { ...this.input.ref, seenVersion: w.resourceVersion };
    view.observedGeneration = w.generation;
    this.idleTimeoutMs = w.idleTimeoutMs;
    if (w.paused) return this.wait('paused', 'the pause annotation to be removed');
    if (w.invalid) {
      await this.report(ref, 'Failed', w.invalid, { status: 'False', reason: 'InvalidSpec', message: w.invalid });
      return this.wait('idle', 'a valid spec');
    }
    // The idle timer of a new workload counts from its first pass.
    view.lastActivityMs ??= Date.now();
    if (view.suspending) return this.suspend(ref, w);
    if (!view.awake) {
      if (!view.wakeRequested) return this.suspended(ref);
      view.awake = true;
      view.waking = true;
    }
    view.wakeRequested = false;
    return this.run(ref, w);
  }

  /** Awake: the pod exists and runs; once it is idle long enough, the suspend begins. */
  private async run(ref: ReadRef, w: WorkloadAssessment): Promise<PassEnd> {
    const { view } = this;
    const podName = w.podName ?? ref.name;
    // Idle already (the timer's pass): the suspend begins before the pod is looked at. A pass that began
    // the suspend and was cut off after deleting the pod (a worker killed) runs again from here: it must
    // go on suspending, not create the pod again because it is missing.
    if (view.phase === 'Running' && !view.waking && this.idleLeftMs(w) <= 0) return this.beginSuspend(ref, w);
    this.at('pod', `pod ${podName}`);
    const restoreFrom = view.waking ? view.checkpointImage : undefined;
    let pod: WorkloadPodState;
    try {
      pod = await cluster.applyWorkloadPod(ref, restoreFrom ? { restoreFrom, ...(view.checkpointNode ? { nodeName: view.checkpointNode } : {}) } : {});
    } catch (err) {
      // A pod the API server refused (e.g. an unknown RuntimeClass) is reported in status (Failed).
      if (!isCancellation(err)) await this.reportPodFailure(ref, podName, err);
      // The pass fails all the same: the loop backs off and tries again; a spec change tries at once.
      throw err;
    }
    if (pod.reason === 'PodExists') {
      await this.report(ref, 'Failed', pod.message ?? `Pod ${ref.namespace}/${pod.podName} exists`, { status: 'False', reason: pod.reason, message: pod.message ?? '' });
      return this.wait('pod', `pod ${pod.podName} (not this workload's) to be removed`);
    }
    view.podName = pod.podName;
    view.podUID = pod.podUID;
    if (pod.deleting) {
      // The previous pod (a suspend's, or deleted by someone) is still terminating: the new one follows it.
      const message = `Waiting for pod ${pod.podName} to finish terminating`;
      await this.report(ref, view.waking ? 'Restoring' : 'Pending', message, { status: 'False', reason: 'PodTerminating', message });
      return this.wait('pod', `pod ${pod.podName} to finish terminating`, toMs(this.settings.pollInterval));
    }
    if (pod.phase === 'Failed') {
      // Reported, then replaced after a backoff: a pod that keeps failing is not recreated in a hot loop.
      const message = `Pod ${pod.podName} failed: ${pod.message ?? pod.reason ?? 'unknown reason'}; it is replaced`;
      if (restoreFrom) {
        // A pod that could not be restored: its replacement starts fresh rather than fail the same way.
        view.checkpointImage = undefined;
        view.checkpointNode = undefined;
        view.degraded = `Pod ${pod.podName} could not be restored from ${restoreFrom} (${pod.message ?? pod.reason ?? 'it failed'}); it is started fresh`;
      }
      await this.report(ref, 'Failed', message, { status: 'False', reason: pod.reason ?? 'PodFailed', message });
      this.at('remove-pod', `failed pod ${pod.podName} to be replaced`);
      await cluster.deleteWorkloadPod(ref, { podName: pod.podName, ...(pod.podUID ? { podUID: pod.podUID } : {}) });
      view.podUID = undefined;
      return this.wait('pod', `pod ${pod.podName} to be replaced`, toMs(this.settings.maxRetryDelay));
    }
    if (!pod.ready) {
      const phase: WorkloadPhase = view.waking ? 'Restoring' : view.phase === 'Running' ? 'Running' : 'Pending';
      const message = view.waking
        ? restoreFrom
          ? `Restoring pod ${pod.podName} from ${restoreFrom}`
          : `Starting pod ${pod.podName} fresh (the last suspend kept no checkpoint)`
        : `Waiting for pod ${pod.podName} to be ready`;
      await this.report(ref, phase, message, { status: 'False', reason: phase === 'Restoring' ? 'Restoring' : 'PodNotReady', message });
      return this.wait('pod', `pod ${pod.podName} to be ready`);
    }
    if (view.phase !== 'Running') {
      // The idle timer counts from when the workload can serve: a slow restore does not eat into it.
      view.lastActivityMs = Math.max(view.lastActivityMs ?? 0, Date.now());
    }
    view.waking = false;
    const message = pod.restoreFrom ? `Pod ${pod.podName} restored from ${pod.restoreFrom} is running` : `Pod ${pod.podName} is running`;
    await this.report(ref, 'Running', message, { status: 'True', reason: 'Running', message });

    const left = this.idleLeftMs(w);
    if (left === Infinity) return this.wait('idle', undefined);
    if (left > 0) return this.wait('idle', `no requests until ${new Date(Date.now() + left).toISOString()}`, Math.min(left, this.resyncMs()));
    return this.beginSuspend(ref, w);
  }

  /**
   * The pod could not be created: Failed, the Ready condition's reason the failure's type (KubeForbidden,
   * KubeInvalid, ...) and the message the API server's own explanation. A failed status write does not
   * hide the pod's failure (the pass fails with it).
   */
  private async reportPodFailure(ref: ReadRef, podName: string, err: unknown): Promise<void> {
    const failure = stepError('pod', err);
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const kube = cause instanceof ApplicationFailure && failure.type.startsWith('Kube') ? (cause.details?.[0] as { detail?: unknown } | undefined) : undefined;
    const message =
      kube && typeof kube.detail === 'string' && (cause as ApplicationFailure).nonRetryable
        ? `The API server refused pod ${podName}: ${kube.detail}`
        : `Could not create pod ${podName}: ${failure.message}`;
    try {
      await this.report(ref, 'Failed', message, { status: 'False', reason: failure.type, message });
    } catch {
      // Reported again by the next pass.
    }
  }

  /** How long until the workload is idle (Infinity when it never idles out). */
  private idleLeftMs(w: WorkloadAssessment): number {
    if (w.idleMode === undefined || w.idleMode === 'never' || w.idleTimeoutMs === undefined) return Infinity;
    return (this.view.lastActivityMs ?? Date.now()) + w.idleTimeoutMs - Date.now();
  }

  /** Idle: the suspend begins. From here on it runs to its end (a wake meanwhile waits for it). */
  private beginSuspend(ref: ReadRef, w: WorkloadAssessment): Promise<PassEnd> {
    const { view } = this;
    view.awake = false;
    view.suspends++;
    view.suspending = { n: view.suspends, mode: w.idleMode as SuspendInProgress['mode'], since: Date.now() };
    return this.suspend(ref, w);
  }

  /** A suspend under way: the checkpoint (unless cold), then the pod is removed, then Suspended. */
  private async suspend(ref: ReadRef, w: WorkloadAssessment): Promise<PassEnd> {
    const { view } = this;
    const s = view.suspending!;
    const podName = view.podName ?? w.podName ?? ref.name;
    if (s.mode === 'checkpoint' && s.image === undefined && s.failure === undefined) {
      const decided = await this.checkpoint(ref, s, podName);
      if (decided) return decided;
    }

    this.at('remove-pod', `pod ${podName} to be removed`);
    await cluster.deleteWorkloadPod(ref, { podName, ...(view.podUID ? { podUID: view.podUID } : {}) });
    view.podUID = undefined;
    view.suspending = undefined;
    if (s.mode === 'checkpoint') view.checkpointName = s.checkpointName;
    if (s.image !== undefined) {
      view.suspendedCheckpoints++;
      view.checkpointImage = s.image;
      view.checkpointNode = s.nodeName;
      view.degraded = undefined;
    } else {
      view.checkpointImage = undefined;
      view.checkpointNode = undefined;
      view.degraded = s.failure;
    }
    await this.reportSuspended(ref);

    // One checkpoint per workload is kept: the latest (what the next wake restores from, or why it failed).
    this.at('prune');
    await cluster.pruneSuspendCheckpoints(ref, view.checkpointName ? [view.checkpointName] : []);
    return this.suspended(ref);
  }

  /** Creates (or finds) the suspend's checkpoint; a pass end while it runs, or undefined once decided. */
  private async checkpoint(ref: ReadRef, s: SuspendInProgress, podName: string): Promise<PassEnd | undefined> {
    const { view } = this;
    for (let skipped = 0; ; skipped++) {
      s.checkpointName ??= suspendCheckpointName(ref.name, s.n);
      this.at('checkpoint', `checkpoint ${s.checkpointName} to complete`);
      const cp = await cluster.applySuspendCheckpoint(ref, { name: s.checkpointName, podName });
      if (cp.foreign) {
        if (skipped + 1 >= MAX_FOREIGN_CHECKPOINTS) {
          s.failure = `${cp.message}; suspended by a cold scale-to-zero instead (no checkpoint: the next request starts the pod fresh)`;
          return undefined;
        }
        // Another object holds this name: the next number (deterministic: decided by what the activity saw).
        view.suspends++;
        s.n = view.suspends;
        s.checkpointName = undefined;
        continue;
      }
      if (cp.phase === 'Completed' && cp.checkpointRef) {
        s.image = cp.checkpointRef;
        s.nodeName = cp.nodeName;
        return undefined;
      }
      if (cp.phase === 'Failed') {
        s.failure = `Checkpoint ${s.checkpointName} failed${cp.message ? `: ${cp.message}` : ''}; suspended by a cold scale-to-zero instead (the next request starts the pod fresh)`;
        return undefined;
      }
      const limitMs = cp.timeoutSeconds * 1_000 + toMs(this.settings.providerScheduleToStart) + CHECKPOINT_MARGIN_MS;
      const left = s.since + limitMs - Date.now();
      if (left <= 0) {
        s.failure = `Checkpoint ${s.checkpointName} did not finish within ${Math.round(limitMs / 1_000)}s (it is ${cp.phase ?? 'Pending'}); suspended by a cold scale-to-zero instead (the next request starts the pod fresh)`;
        return undefined;
      }
      const message = `Checkpointing pod ${podName} (KybernateCheckpoint ${s.checkpointName} is ${cp.phase ?? 'Pending'})`;
      await this.report(ref, 'Suspending', message, { status: 'False', reason: 'Suspending', message });
      // The checkpoint's changes wake the workload (a watched child); the deadline bounds a missed one.
      return this.wait('checkpoint', `checkpoint ${s.checkpointName} to complete`, Math.min(left, this.resyncMs()));
    }
  }

  /** Suspended: nothing runs; a request (or a wake) starts the pod again. */
  private async suspended(ref: ReadRef): Promise<PassEnd> {
    await this.reportSuspended(ref);
    if (this.view.wakeRequested) this.dirty = true; // asked while suspending: wake at once
    return this.wait('suspended', 'a request to wake it');
  }

  private async reportSuspended(ref: ReadRef): Promise<void> {
    const { view } = this;
    const message = view.checkpointImage
      ? `Suspended while idle: the next request restores pod ${view.podName ?? ref.name} from checkpoint ${view.checkpointName} (${view.checkpointImage})`
      : `Suspended while idle by a cold scale-to-zero: the next request starts pod ${view.podName ?? ref.name} fresh`;
    await this.report(ref, 'Suspended', message, { status: 'False', reason: 'Suspended', message: 'Suspended; the next request wakes it' });
  }

  private heardActivity(at: string | undefined): void {
    const now = Date.now();
    const parsed = at === undefined ? NaN : Date.parse(at);
    // Never in the future of the workflow's clock: a skewed sender cannot postpone the suspend.
    const when = Number.isNaN(parsed) ? now : Math.min(parsed, now);
    this.view.lastActivityMs = Math.max(this.view.lastActivityMs ?? 0, when);
  }

  private askToWake(): void {
    this.view.wakeRequested = true;
    this.dirty = true;
  }

  /** lastActivityTime moves in steps of a quarter of the idle timeout (at least a second, at most a minute). */
  private lastActivityTime(idleTimeoutMs: number | undefined): string | undefined {
    const { view } = this;
    if (view.lastActivityMs === undefined) return view.lastActivityTime;
    const step = Math.min(60_000, Math.max(1_000, (idleTimeoutMs ?? 240_000) / 4));
    const written = view.lastActivityTime ? Date.parse(view.lastActivityTime) : NaN;
    if (Number.isNaN(written) || view.lastActivityMs - written >= step) view.lastActivityTime = new Date(view.lastActivityMs).toISOString();
    return view.lastActivityTime;
  }

  private async report(ref: ReadRef, phase: WorkloadPhase, message: string, ready: WorkloadStatusInput['ready']): Promise<void> {
    const { view } = this;
    view.phase = phase;
    view.message = message;
    const lastActivityTime = this.lastActivityTime(this.idleTimeoutMs);
    await cluster.writeWorkloadStatus(ref, {
      phase,
      message,
      activeReplicas: phase === 'Running' ? 1 : 0,
      suspendedCheckpoints: view.suspendedCheckpoints,
      ...(view.podName ? { podName: view.podName } : {}),
      ...(lastActivityTime ? { lastActivityTime } : {}),
      ready,
      degraded: view.degraded
        ? { status: 'True', reason: 'CheckpointFailed', message: view.degraded }
        : view.suspendedCheckpoints > 0
          ? { status: 'False', reason: 'Checkpointed', message: 'The last suspend kept a checkpoint' }
          : { status: 'False', reason: 'NoFallback', message: 'No suspend has fallen back to a cold scale-to-zero' },
    });
  }

  private idleTimeoutMs: number | undefined;
  /** Whether this run already knows what earlier runs left (a run continued as new does). */
  private resumed = this.input.carried !== undefined;
}
