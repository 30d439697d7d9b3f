import { reconcileLoop } from '../engine/reconcile-loop.ts';
import { DeploymentState, type ModelDeploymentInput } from './deployment-state.ts';
import type { DeploymentView } from './view.ts';

export type { ModelDeploymentInput } from './deployment-state.ts';

/**
 * One ModelDeployment incarnation's whole life: level-triggered passes that re-read the live object,
 * each woken by a watch signal, a retry, or the resync timer; deletion with a bounded cleanup.
 */
export async function modelDeploymentWorkflow(input: ModelDeploymentInput): Promise<DeploymentView> {
  // The watcher starts the workflow with its MdNamespace and MdName search attributes, and
  // continue-as-new carries them over.
  return reconcileLoop(new DeploymentState(input));
}
