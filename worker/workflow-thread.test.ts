import { createRequire } from 'node:module';
import { Worker as Thread } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnexpectedError, Worker, type CompiledWorkerOptions } from '@temporalio/worker';
import type { Workflow, WorkflowCreator } from '@temporalio/worker/lib/workflow/interface.js';
import { ACTIVATION_LIMIT_MS, THREAD_SCRIPT, WorkflowWorker, boundActivations } from './workflow-thread.ts';

/** A creator whose workflows answer each activation after `activationMs` (never, when undefined). */
function fakeCreator(activationMs: number | undefined, calls: string[]): WorkflowCreator {
  const workflow: Workflow = {
    activate: () => (activationMs === undefined ? new Promise(() => {}) : new Promise((resolve) => setTimeout(() => resolve({ runId: 'r' }), activationMs))),
    getAndResetSinkCalls: async () => (calls.push('sinks'), []),
    dispose: async () => void calls.push('dispose'),
  };
  return { createWorkflow: async () => workflow, destroy: async () => void calls.push('destroy') };
}

const createOptions = { info: { workflowId: 'modeldeployment/ns/md/uid' } } as Parameters<WorkflowCreator['createWorkflow']>[0];

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('boundActivations', () => {
  it('passes activations, sink calls, disposal and destruction through', async () => {
    const calls: string[] = [];
    const creator = boundActivations(fakeCreator(1, calls), 1_000);
    const workflow = await creator.createWorkflow(createOptions);
    await expect(workflow.activate({ runId: 'r' })).resolves.toEqual({ runId: 'r' });
    await workflow.getAndResetSinkCalls();
    await workflow.dispose();
    await creator.destroy();
    expect(calls).toEqual(['sinks', 'dispose', 'destroy']);
  });

  it('fails an activation that never finishes with the error that makes the SDK stop the worker', async () => {
    vi.useFakeTimers();
    const workflow = await boundActivations(fakeCreator(undefined, []), 60_000).createWorkflow(createOptions);
    const activation = workflow.activate({ runId: 'r' });
    let outcome: unknown;
    activation.then(
      (value) => (outcome = value),
      (err) => (outcome = err),
    );
    await vi.advanceTimersByTimeAsync(59_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(UnexpectedError);
    await expect(activation).rejects.toThrow(/an activation of workflow modeldeployment\/ns\/md\/uid did not finish in 60000 ms: the workflow thread is stuck/);
  });
});

describe('WorkflowWorker', () => {
  it('in debug mode asks the SDK for workflow code entered without a per-call timeout, and bounds each activation instead', async () => {
    const seen: CompiledWorkerOptions[] = [];
    const parent = vi.spyOn(Worker as unknown as { createWorkflowCreator: (...args: unknown[]) => Promise<WorkflowCreator> }, 'createWorkflowCreator');
    parent.mockImplementation(async (_bundle, options) => (seen.push(options as CompiledWorkerOptions), fakeCreator(undefined, [])));
    const create = (WorkflowWorker as unknown as { createWorkflowCreator: (...args: unknown[]) => Promise<WorkflowCreator> }).createWorkflowCreator.bind(WorkflowWorker);
    vi.useFakeTimers();
    const creator = await create({ code: '', filename: 'bundle.js', sourceMap: '' }, { isolateExecutionTimeoutMs: 5_000, taskQueue: 'q', debugMode: true }, undefined);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toHaveProperty('isolateExecutionTimeoutMs', undefined);
    expect(seen[0]).toHaveProperty('taskQueue', 'q');
    const activation = (await creator.createWorkflow(createOptions)).activate({ runId: 'r' });
    const failed = expect(activation).rejects.toThrow(UnexpectedError);
    await vi.advanceTimersByTimeAsync(ACTIVATION_LIMIT_MS);
    await failed;
  });
});

describe('THREAD_SCRIPT', () => {
  /** Whether the SDK's global handlers install their promise hook in a thread that runs `script` first. */
  async function hookInstalled(script: string): Promise<boolean> {
    const shared = JSON.stringify(createRequire(import.meta.url).resolve('@temporalio/worker/lib/workflow/vm-shared.js'));
    const thread = new Thread(`${script}
      const handlers = require(${shared}).globalHandlers;
      handlers.install();
      require('node:worker_threads').parentPort.postMessage(handlers.promiseHookInstalled);`, { eval: true });
    try {
      return await new Promise<boolean>((resolve, reject) => {
        thread.once('message', resolve);
        thread.once('error', reject);
      });
    } finally {
      await thread.terminate();
    }
  }

  it('leaves the promise hook out of the SDK workflow thread (which installs it otherwise)', async () => {
    expect(await hookInstalled('')).toBe(true);
    expect(await hookInstalled(THREAD_SCRIPT)).toBe(false);
  });
});
