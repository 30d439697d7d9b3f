/**
 * One line when a connection is lost and one when it is back, whatever happens in between: a retry
 * loop reports every failure here and the log stays readable (no line per retry, which flooded the
 * console with hundreds of lines a minute while a server was down).
 */
export class Outage {
  private since: number | undefined;
  private reason = '';

  constructor(
    private readonly what: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get down(): boolean {
    return this.since !== undefined;
  }

  /** Records a failure; logs only the first one of an outage. Returns whether it logged. */
  failed(reason: string): boolean {
    if (this.since !== undefined) return false;
    this.since = this.now();
    this.reason = firstLine(reason);
    this.log(`${this.what} lost (${this.reason}); retrying with backoff`);
    return true;
  }

  /** Records a success; logs only the one that ends an outage. Returns whether it logged. */
  succeeded(): boolean {
    if (this.since === undefined) return false;
    const seconds = (this.now() - this.since) / 1000;
    this.since = undefined;
    this.log(`${this.what} back after ${seconds.toFixed(1)}s`);
    return true;
  }

  /** While down, what is down, for how long and why (a line of `/healthz`); undefined while up. */
  describe(): string | undefined {
    if (this.since === undefined) return undefined;
    return `${this.what} (lost ${((this.now() - this.since) / 1000).toFixed(0)}s ago: ${this.reason})`;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
