import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { reconcileSignal, type ReconcileRequest } from '../workflows/engine/definitions.ts';
import { workflowIdFor, type ObjectRef } from '../contract/object-ref.ts';
import { Kind } from '../workflows/engine/search-attributes.ts';
import { CODE_LEVEL } from '../workflows/engine/code-level.ts';
import { coreTaskQueue } from '../workflows/engine/settings.ts';
import type { ReconcileSettings } from '../workflows/settings.ts';
import type { WorkflowKind } from './watched-kind.ts';

export interface Delivery {
  kind: WorkflowKind;
  ref: ObjectRef;
  request: ReconcileRequest;
  /** Start the workflow when it is not running (events about the object itself); otherwise only signal. */
  start: boolean;
  /** The object looks new (nothing of ours on it yet): its workflow most likely does not exist. */
  fresh?: boolean;
}

/** Every kind's workflow takes its object's reference, the installation's settings and the code level it begins at. */
export interface WorkflowInput {
  ref: ObjectRef;
  settings?: Partial<ReconcileSettings>;
  codeLevel: number;
}

/**
 * Sends "look again" to an object's workflow. Signal-with-start is idempotent by workflow ID, so
 * several watcher replicas (or a restarted one re-listing everything) only ever add signals.
 */
export function createSignaler(
  client: Client,
  settings: Partial<ReconcileSettings> & Pick<ReconcileSettings, 'taskQueuePrefix'>,
  opts: { eagerStart?: boolean } = {},
) {
  return async function deliver({ kind, ref, request, start, fresh }: Delivery): Promise<void> {
    const workflowId = workflowIdFor(kind.kind, ref);
    if (start) {
      const options = {
        workflowId,
        taskQueue: coreTaskQueue(settings),
        args: [{ ref, settings, codeLevel: CODE_LEVEL } satisfies WorkflowInput] as [WorkflowInput],
        typedSearchAttributes: [{ key: Kind, value: kind.kind }, ...kind.startAttributes(ref)],
      };
      // A new object's workflow starts eagerly: the server hands its first workflow task straight back
      // to the core worker of this process, skipping a trip through the task queue. Its first pass
      // needs no signal. Anything not new (or a lost race) takes signal-with-start, idempotent by ID.
      if (opts.eagerStart && fresh) {
        try {
          await client.workflow.start(kind.workflowType, { ...options, requestEagerStart: true });
          return;
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      }
      await client.workflow.signalWithStart(kind.workflowType, { ...options, signal: reconcileSignal, signalArgs: [request] });
      return;
    }
    try {
      await client.workflow.getHandle(workflowId).signal(reconcileSignal, request);
    } catch (err) {
      // No workflow (yet, or any more): the object's own events start one when needed.
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  };
}

export type Deliver = ReturnType<typeof createSignaler>;
