import { describe, expect, it } from 'vitest';
import { ServedWorker, type RunnableWorker } from './served-worker.ts';

/** A worker whose run lasts until it is shut down, or ends with `failWith`. */
function fakeWorker(failWith?: Error): RunnableWorker & { runs: number; shutdowns: number } {
  let state: ReturnType<RunnableWorker['getState']> = 'INITIALIZED';
  let end: () => void = () => {};
  const fake = {
    runs: 0,
    shutdowns: 0,
    getState: () => state,
    run: () => {
      fake.runs += 1;
      state = 'RUNNING';
      if (failWith) {
        state = 'FAILED';
        return Promise.reject(failWith);
      }
      return new Promise<void>((resolve) => (end = resolve));
    },
    shutdown: () => {
      fake.shutdowns += 1;
      state = 'STOPPED';
      end();
    },
  };
  return fake;
}

describe('ServedWorker', () => {
  it('shuts a running worker down and waits for its run to end', async () => {
    const worker = fakeWorker();
    const served = new ServedWorker(worker, 'kar-core', () => {});
    served.run();
    await served.stop();
    expect(worker.runs).toBe(1);
    expect(worker.shutdowns).toBe(1);
    expect(worker.getState()).toBe('STOPPED');
  });

  it('runs a worker never run only to shut it down at once: its run ending is what releases it', async () => {
    const worker = fakeWorker();
    await new ServedWorker(worker, 'kar-core', () => {}).stop();
    expect(worker.runs).toBe(1);
    expect(worker.shutdowns).toBe(1);
    expect(worker.getState()).toBe('STOPPED');
  });

  it('logs a run that ends with an error, naming the task queue, and still stops', async () => {
    const lines: string[] = [];
    const worker = fakeWorker(new Error('namespace not found'));
    const served = new ServedWorker(worker, 'kar-provider-kaito', (line) => lines.push(line));
    served.run();
    await served.stop();
    expect(lines).toEqual(['worker on kar-provider-kaito stopped with an error: namespace not found']);
    expect(worker.shutdowns).toBe(0);
  });
});
