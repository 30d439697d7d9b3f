import { continueAsNew, proxyLocalActivities, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { FlameActivities } from '../../contract/flame-activities.ts';
import type { FlameClusterState } from '../../api/flame/types.ts';
import { ACTIVITY_RETRY, KUBE_ACTIVITY_TIMEOUT } from '../engine/activity-options.ts';
import type { ReconcileRequest } from '../engine/definitions.ts';
import { toMs } from '../engine/durations.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import { reconcileLoop, type PassEnd, type Reconciler } from '../engine/reconcile-loop.ts';
import { K8sPhase } from '../engine/search-attributes.ts';
import { SeenVersion } from '../engine/seen-version.ts';
import { stepError } from '../engine/step-error.ts';
import type { LoopView, StepError } from '../engine/view.ts';
import { DEFAULT_SETTINGS, type ReconcileSettings } from '../settings.ts';

export interface FlameClusterInput {
  ref: ObjectRef;
  settings?: Partial<ReconcileSettings>;
  /** The view carried across continue-as-new. */
  carried?: FlameClusterView;
  /** The newest resourceVersion a signal reported, carried across continue-as-new (see SeenVersion). */
  seenVersion?: string;
}

export type FlameStep = 'apply' | 'status' | 'idle' | 'paused';

export interface FlameClusterView extends LoopView {
  phase: FlameClusterState | undefined;
  step: FlameStep;
  configGeneration: number | undefined;
}

/** Its steps talk to the API server only: local activities, each a marker in history with its result. */
const flame = proxyLocalActivities<FlameActivities>({ startToCloseTimeout: KUBE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

/**
 * One FlameCluster incarnation's life (seed 004): each pass applies its ConfigMap and Services,
 * converges its pods (create missing indices, remove extras highest first, recreate stale ones) and
 * reports status from the pods. Children changes wake it by watch. Deletion is Kubernetes' garbage
 * collector's (every child carries our controller ownerReference): the workflow simply ends.
 */
export async function flameClusterWorkflow(input: FlameClusterInput): Promise<FlameClusterView> {
  return reconcileLoop(new FlameClusterReconciler(input));
}

class FlameClusterReconciler implements Reconciler<FlameClusterView> {
  readonly view: FlameClusterView;
  readonly settings: ReconcileSettings;
  dirty = false;
  private readonly seen: SeenVersion;
  private published = '';

  constructor(private readonly input: FlameClusterInput) {
    this.settings = { ...DEFAULT_SETTINGS, ...input.settings };
    this.seen = new SeenVersion(input.seenVersion);
    this.view = input.carried ?? {
      ...input.ref,
      phase: undefined,
      message: undefined,
      step: 'apply',
      waitingFor: undefined,
      lastError: undefined,
      failures: 0,
      observedGeneration: undefined,
      passes: 0,
      configGeneration: undefined,
    };
  }

  heard(request: ReconcileRequest | undefined): void {
    this.seen.saw(request?.resourceVersion);
  }

  async runPass(): Promise<PassEnd> {
    const { view } = this;
    this.at('apply');
    const applied = await flame.applyFlameCluster(this.seen.readRef(this.input.ref));
    if (!applied.found || applied.deleting) return { done: true };
    view.observedGeneration = applied.generation;
    // Paused: children and status stay as they are until the annotation goes (its removal wakes the workflow).
    if (applied.paused) return this.wait('paused', 'the pause annotation to be removed', toMs(this.settings.resyncPeriod));
    if (applied.configGeneration !== undefined) view.configGeneration = applied.configGeneration;
    // The report reads the cluster no older than the apply saw it.
    const ref = { ...this.input.ref, seenVersion: applied.resourceVersion };
    this.at('status');
    const status = await flame.reportFlameStatus(ref, { invalid: applied.invalid, configGeneration: applied.configGeneration });
    view.phase = status.state;
    view.message = status.message;
    const resync = toMs(this.settings.resyncPeriod);
    // An invalid spec waits for an edit (which wakes it by watch), not for a retry: no hot loop.
    if (applied.invalid) return this.wait('apply', 'a valid spec', resync);
    if (applied.waitingFor) return this.wait('apply', applied.waitingFor, toMs(this.settings.pollInterval));
    return this.wait('idle', undefined, resync);
  }

  async passFailed(err: unknown): Promise<StepError> {
    return stepError(this.view.step, err);
  }

  /** The phase as a search attribute and a summary memo, written only when they change. */
  publish(): void {
    const { view } = this;
    const key = `${view.phase}|${view.lastError?.message}`;
    if (key === this.published) return;
    this.published = key;
    upsertSearchAttributes([{ key: K8sPhase, value: view.phase ?? null }]);
    upsertMemo({ summary: { phase: view.phase ?? null, step: view.step, lastError: view.lastError?.message ?? null } });
  }

  continueAsNew(): Promise<never> {
    return continueAsNew<typeof flameClusterWorkflow>({ ref: this.input.ref, settings: this.input.settings, carried: this.view, seenVersion: this.seen.version });
  }

  private at(step: FlameStep, waitingFor?: string): void {
    this.view.step = step;
    this.view.waitingFor = waitingFor;
  }

  private wait(step: FlameStep, waitingFor: string | undefined, afterMs: number): PassEnd {
    this.at(step, waitingFor);
    return { done: false, afterMs };
  }
}
