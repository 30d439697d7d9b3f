import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
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
  /** The object looks new (no finalizer of ours yet): its workflow most likely does not exist. */
  fresh?: boolean;
}

/**
 * Sends "look again" to a deployment's workflow. Signal-with-start is idempotent by workflow ID, so
 * several watcher replicas (or a restarted one re-listing everything) only ever add signals.
 */
export function createSignaler(
  client: Client,
  settings: Partial<ReconcileSettings> & Pick<ReconcileSettings, 'taskQueuePrefix'>,
  opts: { eagerStart?: boolean } = {},
) {
  return async function deliver({ ref, request, start, fresh }: Delivery): Promise<void> {
    const workflowId = workflowIdFor(ref);
    if (start) {
      const options = {
        workflowId,
        taskQueue: coreTaskQueue(settings),
        args: [{ ref, settings } satisfies ModelDeploymentInput] as [ModelDeploymentInput],
        typedSearchAttributes: [
          { key: MdNamespace, value: ref.namespace },
          { key: MdName, value: ref.name },
        ],
      };
      // A new object's workflow starts eagerly: the server hands its first workflow task straight back
      // to the core worker of this process, skipping a trip through the task queue. Its first pass
      // needs no signal. Anything not new (or a lost race) takes signal-with-start, idempotent by ID.
      if (opts.eagerStart && fresh) {
        try {
          await client.workflow.start('modelDeploymentWorkflow', { ...options, requestEagerStart: true });
          return;
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      }
      await client.workflow.signalWithStart('modelDeploymentWorkflow', { ...options, signal: reconcileSignal, signalArgs: [request] });
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
