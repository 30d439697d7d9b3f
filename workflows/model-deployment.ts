import { upsertSearchAttributes } from '@temporalio/workflow';
import { DeploymentState, type CarriedState } from './deployment-state.ts';
import type { ObjectRef } from '../contract/object-ref.ts';
import { reconcileLoop } from './engine/reconcile-loop.ts';
import { MdName, MdNamespace } from './engine/search-attributes.ts';
import { DEFAULT_SETTINGS, type ReconcileSettings } from './settings.ts';
import type { DeploymentView } from './view.ts';

export interface ModelDeploymentInput {
  ref: ObjectRef;
  settings?: Partial<ReconcileSettings>;
  /** State carried across continue-as-new. */
  carried?: CarriedState;
  /** The code level the run began at (see `engine/code-level.ts`); absent in runs begun before levels. */
  codeLevel?: number;
}

/**
 * One ModelDeployment incarnation's whole life: level-triggered passes that re-read the live object,
 * each woken by a watch signal, a retry, or the resync timer; deletion with a bounded cleanup.
 */
export async function modelDeploymentWorkflow(input: ModelDeploymentInput): Promise<DeploymentView> {
  const settings: ReconcileSettings = { ...DEFAULT_SETTINGS, ...input.settings };
  const state = new DeploymentState(input, settings);
  // The watcher starts the workflow with these attributes and continue-as-new carries them over;
  // histories recorded before FEWER_ROUND_TRIPS set them again here.
  if (!state.fewerRoundTrips) {
    upsertSearchAttributes([
      { key: MdNamespace, value: input.ref.namespace },
      { key: MdName, value: input.ref.name },
    ]);
  }
  return reconcileLoop(state);
}
