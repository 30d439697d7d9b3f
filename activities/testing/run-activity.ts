import { MockActivityEnvironment } from '@temporalio/testing';

/**
 * Runs one activity in the SDK's mock activity context (its Context.current(), heartbeats, cancellation),
 * typed by the activity: the test reads the outcome as the workflow would receive it.
 */
export function runActivity<A extends unknown[], R>(fn: (...args: A) => Promise<R>, ...args: A): Promise<R> {
  return new MockActivityEnvironment().run(fn, ...args);
}
