import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { reconcileSignal, type ReconcileRequest } from '../workflows/definitions.ts';
import { workflowIdFor, type DeploymentRef } from '../workflows/ids.ts';
import type { ModelDeploymentInput } from '../workflows/model-deployment.ts';
import { MdName, MdNamespace } from '../workflows/search-attributes.ts';
import { coreTaskQueue, type ReconcileSettings } from '../workflows/settings.ts';

export interface Delivery {
  ref: DeploymentRef;
  request: ReconcileRequest;
  /** Start the workflow when it is not running (events about the ModelDeployment itself); otherwise only signal. */
  start: boolean;
}

/**
 * Sends "look again" to a deployment's workflow. Signal-with-start is idempotent by workflow ID, so
 * several watcher replicas (or a restarted one re-listing everything) only ever add signals.
 */
export function createSignaler(client: Client, settings: Partial<ReconcileSettings> & Pick<ReconcileSettings, 'taskQueuePrefix'>) {
  return async function deliver({ ref, request, start }: Delivery): Promise<void> {
    const workflowId = workflowIdFor(ref);
    if (start) {
      const input: ModelDeploymentInput = { ref, settings };
      await client.workflow.signalWithStart('modelDeploymentWorkflow', {
        workflowId,
        taskQueue: coreTaskQueue(settings),
        args: [input],
        signal: reconcileSignal,
        signalArgs: [request],
        typedSearchAttributes: [
          { key: MdNamespace, value: ref.namespace },
          { key: MdName, value: ref.name },
        ],
      });
      return;
    }
    try {
      await client.workflow.getHandle(workflowId).signal(reconcileSignal, request);
    } catch (err) {
      // No workflow (yet, or any more): the ModelDeployment's own events start one when needed.
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  };
}
