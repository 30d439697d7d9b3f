/**
 * At most one send in flight per key. Triggers that arrive meanwhile collapse into one follow-up send
 * carrying the newest item, so a burst of watch events for one object costs at most two signals. A
 * failed send is retried with backoff unless a newer trigger replaced it. `concurrency` bounds the
 * sends across all keys (a watcher starting on a large cluster lists every object at once).
 */
export class Coalescer<T> {
  private readonly inFlight = new Set<string>();
  private readonly pending = new Map<string, T>();
  private readonly queue: (() => void)[] = [];
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private active = 0;
  private stopped = false;

  constructor(
    private readonly send: (key: string, item: T) => Promise<void>,
    private readonly opts: { concurrency?: number; onError?: (key: string, err: unknown, retryInMs: number) => void; retryBaseMs?: number; retryMaxMs?: number } = {},
  ) {}

  trigger(key: string, item: T): void {
    if (this.stopped) return;
    const timer = this.retryTimers.get(key);
    if (timer) {
      clearTimeout(timer);
      this.retryTimers.delete(key);
    }
    if (this.inFlight.has(key)) {
      this.pending.set(key, item);
      return;
    }
    this.inFlight.add(key);
    void this.run(key, item, 0);
  }

  /** Keys with a send in flight or waiting; for tests and metrics. */
  get busy(): number {
    return this.inFlight.size + this.retryTimers.size;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.retryTimers.values()) clearTimeout(t);
    this.retryTimers.clear();
  }

  private async run(key: string, item: T, failures: number): Promise<void> {
    await this.slot();
    let failed = false;
    try {
      await this.send(key, item);
    } catch (err) {
      failed = true;
      const delay = Math.min((this.opts.retryBaseMs ?? 1_000) * 2 ** failures, this.opts.retryMaxMs ?? 30_000);
      // A send that fails after stop() is not reported: nothing retries it, and its failure is the
      // process stopping (the Temporal connection closes right after the watchers stop), not news. A
      // SIGINT right after deletions used to log such a harmless "signal … failed".
      if (!this.stopped) this.opts.onError?.(key, err, delay);
      // Retry the same item later, unless a newer trigger is already waiting to be sent.
      if (!this.pending.has(key)) {
        this.release();
        this.inFlight.delete(key);
        if (!this.stopped) this.retryTimers.set(key, setTimeout(() => this.retry(key, item, failures + 1), delay));
        return;
      }
    }
    this.release();
    const next = this.pending.get(key);
    this.pending.delete(key);
    if (next !== undefined && !this.stopped) void this.run(key, next, failed ? failures + 1 : 0);
    else this.inFlight.delete(key);
  }

  private retry(key: string, item: T, failures: number): void {
    this.retryTimers.delete(key);
    if (this.inFlight.has(key) || this.stopped) return;
    this.inFlight.add(key);
    void this.run(key, item, failures);
  }

  private slot(): Promise<void> {
    const limit = this.opts.concurrency ?? 16;
    if (this.active < limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(() => {
      this.active++;
      resolve();
    }));
  }

  private release(): void {
    this.active--;
    this.queue.shift()?.();
  }
}
