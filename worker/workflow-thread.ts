import { createRequire } from 'node:module';
import { Worker as Thread } from 'node:worker_threads';
import { UnexpectedError, Worker, type CompiledWorkerOptions } from '@temporalio/worker';
import type { Logger } from '@temporalio/common';
import { ThreadedVMWorkflowCreator, WorkerThreadClient } from '@temporalio/worker/lib/workflow/threaded-vm.js';
import type { Workflow, WorkflowCreator } from '@temporalio/worker/lib/workflow/interface.js';
import type { WorkflowBundleWithSourceMapAndFilename } from '@temporalio/worker/lib/workflow/workflow-worker-thread/input.js';

/** How long one activation may keep the workflow thread before the worker is given up (the SDK's per-call bound is 5 s). */
export const ACTIVATION_LIMIT_MS = 60_000;

/**
 * The SDK's Worker, with workflow threads of our own making.
 *
 * Entered without a watchdog thread per call: the SDK bounds every call into a workflow's V8 context
 * with `vm`'s `timeout`, and Node enforces that timeout by creating and joining a thread on each call
 * (nodejs/node#47739): about 60 µs per call on this machine, and a workflow task makes tens of calls,
 * so in a burst most of the workflow thread's time went there and a busy machine's scheduler made it
 * wait longer still. Here the calls run unbounded and each whole activation is bounded instead, by one
 * timer on the main thread: an activation that does not finish in `ACTIVATION_LIMIT_MS` (workflow code
 * that never yields) fails the worker the way the SDK fails it when its workflow thread dies. The
 * process then stops and its workflows move to another worker, instead of the thread hanging unseen.
 *
 * Without the SDK's promise hook (THREAD_SCRIPT). For the Temporal UI's stack trace view the SDK hooks
 * every promise a workflow creates: it compiles two small functions to find the promise's workflow,
 * builds an Error for its stack, matches it against regular expressions and files it in two maps,
 * then compiles one more function and deletes it again when the promise settles. A reconcile pass
 * creates hundreds of promises; in a burst the hook made a quarter of the workflow thread's
 * allocations. Operators do not need the view here (workflows/stack-traces.ts): the stack trace query
 * answers that stack traces are not enabled on this worker.
 */
export class WorkflowWorker extends Worker {
  protected static override async createWorkflowCreator(
    bundle: WorkflowBundleWithSourceMapAndFilename,
    options: CompiledWorkerOptions,
    logger: Logger,
  ): Promise<WorkflowCreator> {
    // An undefined timeout is vm's "no watchdog"; the SDK types it as a number because its default is one.
    const unbounded = { ...options, isolateExecutionTimeoutMs: undefined as unknown as number };
    // Debug mode runs workflows in this thread (the SDK's way to debug them): left as the SDK makes it.
    const creator = options.debugMode ? await super.createWorkflowCreator(bundle, unbounded, logger) : await startThreads(bundle, unbounded, logger);
    return boundActivations(creator, ACTIVATION_LIMIT_MS);
  }
}

const sdk = createRequire(import.meta.url);
/**
 * What each workflow thread runs: the SDK's thread script, with the promise hook its global handlers
 * would install left out (the hook's flag then stays false, which is how workflows learn that stack
 * traces are off).
 */
export const THREAD_SCRIPT = `
const { globalHandlers } = require(${JSON.stringify(sdk.resolve('@temporalio/worker/lib/workflow/vm-shared.js'))});
globalHandlers.setPromiseHook = () => {};
require(${JSON.stringify(sdk.resolve('@temporalio/worker/lib/workflow/workflow-worker-thread.js'))});
`;

/** The SDK's threaded creator (ThreadedVMWorkflowCreator.create) over threads that run THREAD_SCRIPT. */
async function startThreads(bundle: WorkflowBundleWithSourceMapAndFilename, options: CompiledWorkerOptions, logger: Logger): Promise<WorkflowCreator> {
  if (options.patchActivationCallback) throw new UnexpectedError('patchActivationCallback is not supported by this worker');
  const threads = Array.from({ length: options.workflowThreadPoolSize }, () => new WorkerThreadClient(new Thread(THREAD_SCRIPT, { eval: true }), logger));
  await Promise.all(
    threads.map((thread) =>
      thread.send({
        type: 'init',
        workflowBundle: bundle,
        isolateExecutionTimeoutMs: options.isolateExecutionTimeoutMs,
        reuseV8Context: options.reuseV8Context ?? true,
        registeredActivityNames: new Set(options.activities.keys()),
        hasPatchActivationCallback: false,
      }),
    ),
  );
  return new ThreadedVMWorkflowCreator(threads);
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
