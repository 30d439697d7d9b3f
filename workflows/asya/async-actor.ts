import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { ActorCondition, ActorMode, ActorStatusInput, AsyaActivities, TargetRef } from '../../contract/asya-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { ACTIVITY_RETRY, KUBE_ACTIVITY_TIMEOUT } from '../engine/activity-options.ts';
import { deletionDeadline, untilDeadline } from '../engine/deletion-deadline.ts';
import { toMs } from '../engine/durations.ts';
import { freshView, ObjectReconciler, type ObjectInput } from '../engine/object-reconciler.ts';
import { ENGINE_DEFAULTS, type EngineSettings } from '../engine/settings.ts';
import { reconcileLoop, type PassEnd } from '../engine/reconcile-loop.ts';
import type { LoopView } from '../engine/view.ts';
import { ASYNC_ACTOR_DEFAULTS, type AsyncActorSettings } from './settings.ts';

/** Seed 002: past this many removals of our containers by the target's owner, stop re-injecting until the spec changes. */
export const MAX_CONFLICTS = 5;

export type ActorStep = 'read' | 'transport' | 'apply' | 'resolve' | 'backoff' | 'inject' | 'cleanup' | 'idle' | 'paused';

export interface AsyncActorView extends LoopView {
  step: ActorStep;
  mode: ActorMode | undefined;
  /** `Kind/namespace/name` of the workload our runtime was injected into (binding mode). */
  injectedInto: string | undefined;
  injectedTarget: TargetRef | undefined;
  conflictCount: number;
  lastConflictTime: string | undefined;
  /** The generation at which the conflict loop stopped re-injection: a new generation resumes it. */
  parkedAt: number | undefined;
}

export type AsyncActorInput = ObjectInput<AsyncActorView, AsyncActorView, AsyncActorSettings & EngineSettings>;

/** Kubernetes and broker calls, each short: local activities, each a marker in history with its result. */
const asya = proxyLocalActivities<AsyaActivities>({ startToCloseTimeout: KUBE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

/**
 * One AsyncActor incarnation (seed 002): its queues on the broker, then either its own workload
 * (standalone) or our runtime and sidecar injected into a workload another controller owns (binding),
 * scaled by KEDA. When the owner strips our containers the re-injection backs off durably (n × 5 s) and
 * stops after five such conflicts until the spec changes. Deletion un-injects, deletes the queues and
 * releases the finalizer, bounded like every cleanup here.
 */
export async function asyncActorWorkflow(input: AsyncActorInput): Promise<AsyncActorView> {
  return reconcileLoop(new AsyncActorReconciler(input));
}

class AsyncActorReconciler extends ObjectReconciler<AsyncActorView, AsyncActorView, AsyncActorSettings & EngineSettings> {
  constructor(input: AsyncActorInput) {
    super(input, input.carried ?? {
      ...freshView(input.ref, 'read'),
      phase: undefined,
      step: 'read',
      mode: undefined,
      injectedInto: undefined,
      injectedTarget: undefined,
      conflictCount: 0,
      lastConflictTime: undefined,
      parkedAt: undefined,
    }, { ...ENGINE_DEFAULTS, ...ASYNC_ACTOR_DEFAULTS });
  }

  async runPass(): Promise<PassEnd> {
    const { view } = this;
    this.at('read');
    const actor = await asya.assessAsyncActor(this.readRef());
    if (!actor.found) return { done: true };
    const ref: ReadRef = { ...this.input.ref, seenVersion: actor.resourceVersion };
    view.observedGeneration = actor.generation;
    view.mode = actor.mode;
    if (actor.deleting) {
      if (actor.hasFinalizer) await this.cleanup(ref, actor.deletionTimestamp);
      return { done: true };
    }
    if (actor.paused) return this.wait('paused', 'the pause annotation to be removed', this.resyncMs());
    if (actor.invalid) {
      const which = actor.mode === 'Binding' ? 'TargetResolved' : 'WorkloadReady';
      await this.report(ref, 'Invalid', actor.invalid, [{ type: which, status: 'False', reason: 'ValidationError', message: actor.invalid }]);
      return this.wait('read', 'a valid spec', this.resyncMs());
    }
    // A new generation is what the conflict loop waits for.
    if (view.parkedAt !== undefined && actor.generation !== view.parkedAt) {
      view.parkedAt = undefined;
      view.conflictCount = 0;
      // The removal that parked the loop is counted already: resuming is a fresh injection, not conflict 1.
      view.injectedInto = undefined;
    }

    this.at('transport');
    const queues = await asya.ensureActorQueues(ref);
    const transport: ActorCondition = { type: 'TransportReady', status: queues.ready ? 'True' : 'False', reason: queues.reason, message: queues.message };
    // The broker may come back: look again soon rather than at the next resync.
    const next = queues.ready ? this.resyncMs() : toMs(this.settings.pollInterval);
    return actor.mode === 'Binding' ? this.bind(ref, transport, next) : this.standalone(ref, transport, next);
  }

  private async standalone(ref: ReadRef, transport: ActorCondition, next: number): Promise<PassEnd> {
    this.at('apply');
    const workload = await asya.applyStandalone(ref);
    const ready = workload.readyReplicas > 0 || workload.replicas === 0;
    const word = workload.replicas === 0 ? 'Napping' : workload.readyReplicas > 0 ? 'Running' : 'Creating';
    const message = workload.replicas === 0 ? 'Scaled to zero: no messages waiting' : `${workload.readyReplicas}/${workload.replicas} replicas ready`;
    await this.report(ref, word, message, [
      transport,
      { type: 'WorkloadReady', status: ready ? 'True' : 'False', reason: ready ? 'WorkloadReady' : 'WorkloadNotReady', message: `${workload.workload}: ${message}` },
      workload.scaling,
    ], { replicas: workload.replicas, readyReplicas: workload.readyReplicas, resolvedTarget: workload.workload });
    return this.wait('idle', undefined, next);
  }

  private async bind(ref: ReadRef, transport: ActorCondition, next: number): Promise<PassEnd> {
    const { view } = this;
    this.at('resolve');
    const target = await asya.resolveActorTarget(ref);
    const resolved: ActorCondition = { type: 'TargetResolved', status: target.resolved ? 'True' : 'False', reason: target.reason, message: target.message };
    if (!target.resolved || !target.target || !target.scaleTarget) {
      await this.report(ref, 'Binding', target.message, [transport, resolved]);
      // A target whose workload is not there yet is a wait (KAITO creates it later), not a failure.
      return this.wait('resolve', target.reason === 'TargetNotReady' ? 'the target workload to exist' : 'a workload to bind to', target.reason === 'TargetNotReady' ? toMs(this.settings.pollInterval) : this.resyncMs());
    }
    const facts = { resolvedTarget: target.description, replicas: target.replicas, readyReplicas: target.readyReplicas };
    if (target.refusal) {
      const message = target.refusalMessage ?? target.refusal;
      await this.report(ref, 'Conflict', message, [transport, resolved, { type: 'RuntimeInjected', status: 'False', reason: target.refusal, message }], { ...facts, runtimeInjected: false });
      return this.wait('resolve', 'the target to be free', this.resyncMs());
    }
    if (view.parkedAt !== undefined) return this.parked(ref, transport, resolved, facts);

    if (view.injectedInto === target.description && !target.injected) {
      // Our containers were there and the owner removed them: a conflict, re-injected after a growing backoff.
      view.conflictCount++;
      view.lastConflictTime = new Date().toISOString();
      if (view.conflictCount > MAX_CONFLICTS) {
        view.parkedAt = view.observedGeneration;
        await asya.recordActorEvent(ref, { type: 'Warning', reason: 'ConflictLoopDetected', message: conflictLoopMessage(target.description!) });
        return this.parked(ref, transport, resolved, facts);
      }
      const backoff = view.conflictCount * toMs(this.settings.conflictBackoff);
      const message = `The owner of ${target.description} removed the Asya containers (conflict ${view.conflictCount} of ${MAX_CONFLICTS}); re-injecting in ${backoff / 1000}s`;
      await asya.recordActorEvent(ref, { type: 'Warning', reason: 'InjectionConflict', message });
      await this.report(ref, 'Conflict', message, [transport, resolved, { type: 'RuntimeInjected', status: 'False', reason: 'Conflict', message }], { ...facts, runtimeInjected: false });
      this.at('backoff', 'the conflict backoff to pass');
      // Durable and deaf to signals: the owner's own writes must not cut the backoff short.
      await sleep(backoff);
    }

    this.at('inject');
    if (!target.targetURL) {
      const message = 'No target URL: set runtime.targetURL or runtime.targetService (a ModelDeployment provides one once it reports status.endpoint)';
      await this.report(ref, 'Binding', message, [transport, resolved, { type: 'RuntimeInjected', status: 'False', reason: 'NoTargetURL', message }], facts);
      return this.wait('resolve', 'a target URL', toMs(this.settings.pollInterval));
    }
    const injected = await asya.injectRuntime(ref, { target: target.target, targetURL: target.targetURL, scaleTarget: target.scaleTarget });
    if (view.injectedInto !== target.description) {
      await asya.recordActorEvent(ref, { type: 'Normal', reason: 'RuntimeInjected', message: `Injected asya-runtime and asya-sidecar into ${target.description}` });
    }
    view.injectedInto = target.description;
    view.injectedTarget = target.target;
    const ready = (target.readyReplicas ?? 0) > 0;
    const word = target.replicas === 0 ? 'Napping' : ready ? 'Running' : 'Creating';
    await this.report(ref, word, `Bound to ${target.description}`, [
      transport,
      resolved,
      { type: 'RuntimeInjected', status: 'True', reason: 'Injected', message: `asya-runtime and asya-sidecar are in ${target.description}` },
      injected.scaling,
    ], { ...facts, runtimeInjected: true });
    return this.wait('idle', undefined, next);
  }

  private async parked(ref: ReadRef, transport: ActorCondition, resolved: ActorCondition, facts: Partial<ActorStatusInput>): Promise<PassEnd> {
    const message = conflictLoopMessage(this.view.injectedInto ?? facts.resolvedTarget ?? 'the target');
    await this.report(ref, 'Conflict', message, [transport, resolved, { type: 'RuntimeInjected', status: 'False', reason: 'ConflictLoopDetected', message }], { ...facts, runtimeInjected: false });
    return this.wait('idle', 'a change of the spec (the conflict loop stopped re-injection)', this.resyncMs());
  }

  /** Deletion: release everything, bounded by the cleanup timeout from the deletion request, then the finalizer. */
  private async cleanup(ref: ReadRef, deletionTimestamp: string | undefined): Promise<void> {
    const deadline = deletionDeadline(deletionTimestamp, this.settings.cleanupTimeout);
    this.view.phase = 'Terminating';
    let remaining: string[] = [];
    const released = await untilDeadline(this, {
      deadline,
      pollMs: toMs(this.settings.pollInterval),
      attempt: async () => {
        this.at('cleanup', 'the target, the ScaledObject and the queues to be released');
        remaining = (await asya.releaseActor(ref, this.view.injectedTarget)).remaining;
        return remaining.length === 0;
      },
      beforeWait: async (n) => {
        if (n === 1) await this.report(ref, 'Terminating', `Waiting to release ${remaining.join(', ')}`, []);
      },
    });
    if (!released) {
      await asya.recordActorEvent(ref, { type: 'Warning', reason: 'FinalizerTimeout', message: `Cleanup timed out; these may be left behind: ${remaining.join(', ')}` });
    }
    this.at('cleanup', 'finalizer removal');
    await asya.removeActorFinalizer(ref);
  }

  private async report(ref: ReadRef, word: string, message: string, conditions: ActorCondition[], facts: Partial<ActorStatusInput> = {}): Promise<void> {
    const { view } = this;
    view.phase = word;
    view.message = message;
    await asya.writeActorStatus(ref, {
      mode: view.mode,
      conflictCount: view.conflictCount,
      ...(view.lastConflictTime ? { lastConflictTime: view.lastConflictTime } : {}),
      status: word,
      conditions,
      ...facts,
    });
  }
}

function conflictLoopMessage(target: string): string {
  return `The owner of ${target} removed the Asya containers more than ${MAX_CONFLICTS} times; re-injection stopped until the AsyncActor's spec changes`;
}
