// A Temporal worker as a part of the controller: created while other parts start, run once they all
// have, stopped by shutting it down and waiting for its run to end (its in-flight tasks finish first).

import type { Worker } from '@temporalio/worker';

/** What of a worker serving needs (a fake in unit tests). */
export type RunnableWorker = Pick<Worker, 'run' | 'shutdown' | 'getState'>;

export class ServedWorker {
  private running: Promise<void> | undefined;

  constructor(
    private readonly worker: RunnableWorker,
    private readonly taskQueue: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts polling its task queue; an error that ends the run is logged, not thrown: the process goes on. */
  run(): void {
    this.running ??= this.worker.run().catch((err: Error) => this.log(`worker on ${this.taskQueue} stopped with an error: ${err.message}`));
  }

  /** Shuts it down if it runs and waits for the run to end; nothing to do for one never run (the SDK refuses a shutdown then). */
  async stop(): Promise<void> {
    if (this.worker.getState() === 'RUNNING') this.worker.shutdown();
    await this.running;
  }
}
