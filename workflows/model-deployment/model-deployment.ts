import { upsertSearchAttributes } from '@temporalio/workflow';
import { reconcileLoop } from '../engine/reconcile-loop.ts';
import { MdName, MdNamespace } from '../engine/search-attributes.ts';
import { DeploymentState, type ModelDeploymentInput } from './deployment-state.ts';
import type { DeploymentView } from './view.ts';

export type { ModelDeploymentInput } from './deployment-state.ts';

/**
 * One ModelDeployment incarnation's whole life: level-triggered passes that re-read the live object,
 * each woken by a watch signal, a retry, or the resync timer; deletion with a bounded cleanup.
 */
export async function modelDeploymentWorkflow(input: ModelDeploymentInput): Promise<DeploymentView> {
  const state = new DeploymentState(input);
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
