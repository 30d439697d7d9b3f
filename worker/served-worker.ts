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

  /**
   * Shuts it down if it runs and waits for the run to end. One never run (a start undone before the
   * workers ran) is run only to be shut down at once: the SDK refuses to shut down a worker that is not
   * running, and its run's end is what releases the connection (which cannot close while a worker holds
   * it) and the workflow threads.
   */
  async stop(): Promise<void> {
    if (this.worker.getState() === 'INITIALIZED') this.run();
    if (this.worker.getState() === 'RUNNING') this.worker.shutdown();
    await this.running;
  }
}
