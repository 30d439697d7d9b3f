/**
 * Capped exponential backoff with jitter, for anything that reconnects (watches, supervised servers).
 * Without jitter every informer of a process, and every process of a fleet, retries in lockstep when
 * the server they share comes back; "equal jitter" keeps half the delay fixed so retries still slow
 * down, and spreads the other half at random.
 */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

/** The delay before retry number `attempt` (0-based): within [ceiling/2, ceiling], ceiling = min(max, initial·2^attempt). */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(opts.maxMs, opts.initialMs * 2 ** Math.min(Math.max(attempt, 0), 40));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A retry counter: `next()` gives the next delay, `reset()` after a success starts over. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly opts: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    return backoffDelay(this.attempt++, this.opts, this.random);
  }

  reset(): void {
    this.attempt = 0;
  }

  get attempts(): number {
    return this.attempt;
  }
}
