// The stub-activity workflow tests' shared setup: one test environment on the workflows project's
// Temporal server, and the workers a test starts, each stopped (if still running) after the file.
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll } from 'vitest';
import { workflowBundle } from '../support/controller.ts';
import { temporalInfo } from '../support/env.ts';

export interface StubWorkers {
  /** The test environment (set once the file's beforeAll ran). */
  readonly env: TestWorkflowEnvironment;
  /** Starts a worker on `taskQueue` with these activities, and the product's workflows unless `workflows` is false. */
  start(taskQueue: string, activities: object, opts?: { workflows?: boolean }): Promise<Worker>;
}

/** Registers the file's beforeAll/afterAll; call it at the top of a describe. */
export function stubWorkers(): StubWorkers {
  let env: TestWorkflowEnvironment | undefined;
  const running: { worker: Worker; run: Promise<void> }[] = [];
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createFromExistingServer({ address: temporalInfo().temporalAddress, namespace: temporalInfo().temporalNamespace });
  });
  afterAll(async () => {
    for (const w of running) if (w.worker.getState() === 'RUNNING') w.worker.shutdown();
    await Promise.all(running.map((w) => w.run));
    await env?.teardown();
  });
  return {
    get env() {
      if (!env) throw new Error('the test environment is not ready: use it inside a test');
      return env;
    },
    async start(taskQueue, activities, opts = {}) {
      const worker = await Worker.create({
        connection: this.env.nativeConnection,
        namespace: temporalInfo().temporalNamespace,
        taskQueue,
        ...(opts.workflows === false ? {} : { workflowBundle: await workflowBundle() }),
        activities,
      });
      running.push({ worker, run: worker.run() });
      return worker;
    },
  };
}
