import { condition } from '@temporalio/workflow';
import { toMs } from './durations.ts';

/** When a deletion's cleanup gives up: the deletion request (or now, without one) plus the cleanup timeout. */
export function deletionDeadline(deletionTimestamp: string | undefined, cleanupTimeout: string): number {
  return (deletionTimestamp ? Date.parse(deletionTimestamp) : Date.now()) + toMs(cleanupTimeout);
}

export interface DeadlineLoop {
  /** Set by signals: something changed (a resource went away), try again now. */
  dirty: boolean;
}

export interface DeadlineOptions {
  deadline: number;
  /** The longest wait between attempts when no signal comes (the poll interval). */
  pollMs: number;
  /** One attempt (the n-th, from 1): true when nothing is left to wait for. */
  attempt(n: number): Promise<boolean>;
  /** After a failed attempt, before the wait: e.g. saying in status what the deletion waits for. */
  beforeWait?(n: number): Promise<void>;
  /**
   * Where the deadline is checked. 'after-attempt' (the default): a failed attempt past the deadline
   * ends the loop at once. 'after-wait': it still waits (at most until the deadline) and then ends
   * without another attempt, as ModelDeployment's cleanup does.
   */
  deadlineCheck?: 'after-attempt' | 'after-wait';
}

/**
 * The bounded wait every kind's cleanup shares: at least one attempt (even when the deadline passed
 * while no worker ran), then again on each signal or poll interval, never waiting past the deadline.
 * True when an attempt succeeded; false at the deadline (the caller says what may be left behind and
 * removes its finalizer anyway).
 */
export async function untilDeadline(loop: DeadlineLoop, opts: DeadlineOptions): Promise<boolean> {
  const { deadline, pollMs, deadlineCheck = 'after-attempt' } = opts;
  for (let n = 1; ; n++) {
    // Cleared before each attempt, so a change reported while it runs still cuts the wait short.
    loop.dirty = false;
    if (await opts.attempt(n)) return true;
    if (deadlineCheck === 'after-attempt' && Date.now() >= deadline) return false;
    await opts.beforeWait?.(n);
    await condition(() => loop.dirty, Math.min(pollMs, Math.max(deadline - Date.now(), 1)));
    if (deadlineCheck === 'after-wait' && Date.now() >= deadline) return false;
  }
}
