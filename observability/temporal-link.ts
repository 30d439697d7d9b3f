import { Connection, type ConnectionOptions } from '@temporalio/client';
import { Backoff } from '../kube/backoff.ts';
import { Outage } from '../kube/outage.ts';

// While the Temporal server is down the SDK's core retries every poll by itself and logs each failure
// (hundreds of lines a minute, one per poller and retry). The process says it once instead: the first
// such line marks the link lost, the rest are dropped, and a probe with capped, jittered backoff says
// when the server answers again. The SDK's own reconnection is left alone.

/** Messages the SDK's core logs for a failed poll or an unreachable server. */
const SYMPTOMS = [/gRPC call \w+ retried \d+ times/i, /error while polling/i, /transport error/i, /tcp connect error/i, /connection refused/i, /\bunavailable\b/i, /error trying to connect/i, /broken pipe/i];

/** The core puts the cause in its fields (`error=Status { code: Unavailable, … }`), so they are read too. */
export function isConnectionSymptom(message: string, meta?: unknown): boolean {
  const text = meta === undefined ? message : `${message} ${safeJson(meta)}`;
  return SYMPTOMS.some((re) => re.test(text));
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

export interface TemporalLink {
  readonly down: boolean;
  stop(): void;
}

const links = new Set<LinkImpl>();

/**
 * For the runtime logger: true when the line is a connection symptom the registered link has taken
 * over (drop it); false otherwise, and always when no link is registered (nothing would say "back").
 */
export function takeSdkLogLine(message: string, meta?: unknown): boolean {
  if (links.size === 0 || !isConnectionSymptom(message, meta)) return false;
  const cause = (meta as { error?: unknown } | undefined)?.error;
  const reason = typeof cause === 'string' ? `${message}: ${shortStatus(cause)}` : message;
  for (const link of links) link.lost(reason);
  return true;
}

/** Watches this process's link to the Temporal server at `address`; stop() before closing the process's connections. */
export function watchTemporalLink(opts: { address: string; connection?: Omit<ConnectionOptions, 'address'>; log: (line: string) => void }): TemporalLink {
  const link = new LinkImpl(opts.address, opts.connection ?? {}, opts.log);
  links.add(link);
  return link;
}

class LinkImpl implements TemporalLink {
  private readonly outage: Outage;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly backoff = new Backoff({ initialMs: 1_000, maxMs: 30_000 });

  constructor(
    private readonly address: string,
    private readonly options: Omit<ConnectionOptions, 'address'>,
    log: (line: string) => void,
  ) {
    this.outage = new Outage(`Temporal server at ${address}`, log);
  }

  get down(): boolean {
    return this.outage.down;
  }

  lost(reason: string): void {
    if (this.stopped || !this.outage.failed(reason)) return;
    this.backoff.reset();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    links.delete(this);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), this.backoff.next());
    this.timer.unref();
  }

  /** One short-lived connection per attempt, only while the link is down. */
  private async probe(): Promise<void> {
    if (this.stopped) return;
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ ...this.options, address: this.address, connectTimeout: 2_000 });
      await connection.workflowService.getSystemInfo({});
      if (!this.stopped) this.outage.succeeded();
    } catch {
      if (!this.stopped) this.schedule();
    } finally {
      await connection?.close().catch(() => undefined);
    }
  }
}

/** `Status { code: Unavailable, message: "tcp connect error", … Connection refused … }` → `Unavailable, tcp connect error, Connection refused`. */
export function shortStatus(status: string): string {
  const code = /code: (\w+)/.exec(status)?.[1];
  const message = /message: "([^"]*)"/.exec(status)?.[1];
  if (!code) return status;
  return [code, message, /Connection refused/.test(status) ? 'Connection refused' : undefined].filter(Boolean).join(', ');
}
