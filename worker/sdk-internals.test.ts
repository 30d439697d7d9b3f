// Canary for the SDK internals worker/workflow-thread.ts builds on. The @temporalio packages are pinned to
// one exact version in package.json because these are not public API; when that pin moves, this test
// says which of the assumptions broke before any workflow runs on a worker that silently misbehaves.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import { ThreadedVMWorkflowCreator, WorkerThreadClient } from '@temporalio/worker/lib/workflow/threaded-vm.js';

const sdk = createRequire(import.meta.url);
const source = (module: string) => readFileSync(sdk.resolve(`@temporalio/worker/lib/workflow/${module}`), 'utf8');
const manifest = (name: string) => JSON.parse(readFileSync(sdk.resolve(`@temporalio/${name}/package.json`), 'utf8')) as { version: string };
const pinned = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies;

describe('Temporal SDK internals used by WorkflowWorker', () => {
  it('is the exact version package.json pins', () => {
    for (const name of ['worker', 'workflow', 'client', 'common', 'activity']) {
      expect(pinned[`@temporalio/${name}`], `@temporalio/${name} must be pinned to one version`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(manifest(name).version).toBe(pinned[`@temporalio/${name}`]);
    }
  });

  it('lets a subclass replace Worker.createWorkflowCreator (a protected static the SDK calls on `this`)', () => {
    expect(typeof (Worker as unknown as { createWorkflowCreator?: unknown }).createWorkflowCreator).toBe('function');
    expect(source('../worker.js')).toMatch(/await this\.createWorkflowCreator\(/);
  });

  it('exports the threaded creator and thread client with the constructors startThreads calls', () => {
    expect(typeof ThreadedVMWorkflowCreator).toBe('function');
    expect(typeof WorkerThreadClient).toBe('function');
    // new WorkerThreadClient(thread, logger) and new ThreadedVMWorkflowCreator(clients)
    expect(source('threaded-vm.js')).toMatch(/class WorkerThreadClient \{[\s\S]*?constructor\(workerThread, logger/);
    expect(source('threaded-vm.js')).toMatch(/class ThreadedVMWorkflowCreator \{[\s\S]*?constructor\(workerThreadClients\)/);
  });

  it('has a thread script that takes the init message THREAD_SCRIPT sends', () => {
    const thread = source('workflow-worker-thread.js');
    for (const field of ['workflowBundle', 'isolateExecutionTimeoutMs', 'reuseV8Context', 'registeredActivityNames', 'hasPatchActivationCallback']) {
      expect(thread, `init message field ${field}`).toContain(`input.${field}`);
    }
  });

  it('installs its promise hook through globalHandlers.setPromiseHook, which THREAD_SCRIPT replaces', () => {
    const { globalHandlers } = sdk('@temporalio/worker/lib/workflow/vm-shared.js') as { globalHandlers: { setPromiseHook?: unknown } };
    expect(typeof globalHandlers.setPromiseHook).toBe('function');
    expect(source('vm-shared.js')).toMatch(/this\.setPromiseHook\(\)/);
  });
});
