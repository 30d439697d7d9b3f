import { UnexpectedError, Worker, type CompiledWorkerOptions } from '@temporalio/worker';
import type { Logger } from '@temporalio/common';
import type { Workflow, WorkflowCreator } from '@temporalio/worker/lib/workflow/interface.js';
import type { WorkflowBundleWithSourceMapAndFilename } from '@temporalio/worker/lib/workflow/workflow-worker-thread/input.js';

/** How long one activation may keep the workflow thread before the worker is given up (the SDK's per-call bound is 5 s). */
export const ACTIVATION_LIMIT_MS = 60_000;

/**
 * The SDK's Worker, entering workflow code without a watchdog thread per call.
 *
 * The SDK bounds every call into a workflow's V8 context with `vm`'s `timeout`, and Node enforces that
 * timeout by creating and joining a thread on each call (nodejs/node#47739): about 60 µs per call on
 * this machine, and a workflow task makes tens of calls, so in a burst most of the workflow thread's
 * time went there and a busy machine's scheduler made it wait longer still. Here the calls run
 * unbounded and each whole activation is bounded instead, by one timer on the main thread: an
 * activation that does not finish in `ACTIVATION_LIMIT_MS` (workflow code that never yields) fails the
 * worker the way the SDK fails it when its workflow thread dies. The process then stops and its
 * workflows move to another worker, instead of the thread hanging unseen.
 */
export class WorkflowWorker extends Worker {
  protected static override async createWorkflowCreator(
    bundle: WorkflowBundleWithSourceMapAndFilename,
    options: CompiledWorkerOptions,
    logger: Logger,
  ): Promise<WorkflowCreator> {
    // An undefined timeout is vm's "no watchdog"; the SDK types it as a number because its default is one.
    const unbounded = { ...options, isolateExecutionTimeoutMs: undefined as unknown as number };
    return boundActivations(await super.createWorkflowCreator(bundle, unbounded, logger), ACTIVATION_LIMIT_MS);
  }
}

/** The creator's workflows, each activation (and creation) bounded by `limitMs` of wall time. */
export function boundActivations(creator: WorkflowCreator, limitMs: number): WorkflowCreator {
  return {
    async createWorkflow(options) {
      const workflow = await bounded(creator.createWorkflow(options), limitMs, `creating workflow ${options.info.workflowId}`);
      return boundWorkflow(workflow, limitMs, options.info.workflowId);
    },
    destroy: () => creator.destroy(),
  };
}

function boundWorkflow(workflow: Workflow, limitMs: number, workflowId: string): Workflow {
  return {
    activate: (activation) => bounded(workflow.activate(activation), limitMs, `an activation of workflow ${workflowId}`),
    getAndResetSinkCalls: () => workflow.getAndResetSinkCalls(),
    dispose: () => workflow.dispose(),
  };
}

async function bounded<T>(work: Promise<T>, limitMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnexpectedError(`${what} did not finish in ${limitMs} ms: the workflow thread is stuck (workflow code that never yields)`)), limitMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
