import { proxyLocalActivities } from '@temporalio/workflow';
import type { FlameActivities } from '../../contract/flame-activities.ts';
import type { FlameClusterState } from '../../api/flame/types.ts';
import { ACTIVITY_RETRY, KUBE_ACTIVITY_TIMEOUT } from '../engine/activity-options.ts';
import { toMs } from '../engine/durations.ts';
import { freshView, ObjectReconciler, type ObjectInput } from '../engine/object-reconciler.ts';
import { ENGINE_DEFAULTS } from '../engine/settings.ts';
import { reconcileLoop, type PassEnd } from '../engine/reconcile-loop.ts';
import type { LoopView } from '../engine/view.ts';

export type FlameStep = 'apply' | 'status' | 'idle' | 'paused';

export interface FlameClusterView extends LoopView {
  phase: FlameClusterState | undefined;
  step: FlameStep;
  configGeneration: number | undefined;
}

export type FlameClusterInput = ObjectInput<FlameClusterView>;

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

class FlameClusterReconciler extends ObjectReconciler<FlameClusterView> {
  constructor(input: FlameClusterInput) {
    super(input, input.carried ?? { ...freshView(input.ref, 'apply'), phase: undefined, step: 'apply', configGeneration: undefined }, ENGINE_DEFAULTS);
  }

  async runPass(): Promise<PassEnd> {
    const { view } = this;
    this.at('apply');
    const applied = await flame.applyFlameCluster(this.readRef());
    if (!applied.found || applied.deleting) return { done: true };
    view.observedGeneration = applied.generation;
    // Paused: children and status stay as they are until the annotation goes (its removal wakes the workflow).
    if (applied.paused) return this.wait('paused', 'the pause annotation to be removed');
    if (applied.configGeneration !== undefined) view.configGeneration = applied.configGeneration;
    // The report reads the cluster no older than the apply saw it.
    const ref = { ...this.input.ref, seenVersion: applied.resourceVersion };
    this.at('status');
    const status = await flame.reportFlameStatus(ref, { invalid: applied.invalid, configGeneration: applied.configGeneration });
    view.phase = status.state;
    view.message = status.message;
    // An invalid spec waits for an edit (which wakes it by watch), not for a retry: no hot loop.
    if (applied.invalid) return this.wait('apply', 'a valid spec');
    if (applied.waitingFor) return this.wait('apply', applied.waitingFor, toMs(this.settings.pollInterval));
    return this.wait('idle', undefined);
  }
}
