// The stub-activity workflow tests' shared setup: one time-skipping test environment on this worker's
// test server, and the workers a test starts, each stopped (if still running) after the file.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { workflowBundle } from '../support/controller.ts';
import type { Client } from '@temporalio/client';
import { ServerClock, steppingClient, testServerInfo, timeSkippingEnvironment } from '../support/time-skipping.ts';

export interface StubWorkers {
  /** The test environment (set once the file's beforeAll ran). */
  readonly env: TestWorkflowEnvironment;
  /** The client tests start workflows with: waiting on a result moves no clock (see steppingClient). */
  readonly client: Client;
  /** The workflows' clock (time skipping moves it ahead of the machine's). */
  readonly clock: ServerClock;
  /** Starts a worker on `taskQueue` with these activities, and the product's workflows unless `workflows` is false. */
  start(taskQueue: string, activities: object, opts?: { workflows?: boolean }): Promise<Worker>;
}

/** Registers the file's beforeAll/afterAll; call it at the top of a describe. */
export function stubWorkers(): StubWorkers {
  let env: TestWorkflowEnvironment | undefined;
  const running: { worker: Worker; run: Promise<void> }[] = [];
  const clock = new ServerClock(() => env!);
  beforeAll(async () => {
    env = await timeSkippingEnvironment();
  });
  beforeEach(() => clock.refresh());
  afterAll(async () => {
    for (const w of running) if (w.worker.getState() === 'RUNNING') w.worker.shutdown();
    await Promise.all(running.map((w) => w.run));
    await env?.teardown();
  });
  return {
    clock,
    get client() {
      return steppingClient(this.env);
    },
    get env() {
      if (!env) throw new Error('the test environment is not ready: use it inside a test');
      return env;
    },
    async start(taskQueue, activities, opts = {}) {
      const worker = await Worker.create({
        connection: this.env.nativeConnection,
        namespace: testServerInfo().temporalNamespace,
        taskQueue,
        ...(opts.workflows === false ? {} : { workflowBundle: await workflowBundle() }),
        activities,
      });
      running.push({ worker, run: worker.run() });
      return worker;
    },
  };
}
