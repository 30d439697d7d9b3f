// How the product's parts speak. `run` is a service: pino JSON for everything, each line naming its
// source. `dev` has a person at the console: plain lines, and the activities' step logs (JSON, as the
// interceptor writes them) and the Temporal SDK's records (JSON too) only at the level the person asked
// for. Parts log through this, never choosing a format themselves, so the two cannot drift apart part by part.

import type { Logger } from 'pino';
import { createLogger, lineLog } from '../observability/logger.ts';
import type { RecordLog } from './parts.ts';

export interface ProductLog {
  /** Plain progress lines of one part (informers, controller, Temporal link, simulators). */
  lines(source: string): (line: string) => void;
  /** Records with fields: of one part (webhook), or of the process itself when no source is named. */
  records(source?: string): RecordLog;
  /** Step logs of the activities of one worker (`core`, `provider-kaito`, …). */
  steps(source: string): Logger;
  /** The Temporal SDK's records, its core's among them: JSON in both modes, as the step logs are (worker/runtime.ts). */
  sdk(): Logger;
}

/** Everything as pino JSON lines. */
export function jsonLog(logger: Logger): ProductLog {
  return {
    lines: (source) => lineLog(logger, source),
    records: (source) => (source ? logger.child({ source }) : logger),
    steps: (source) => logger.child({ source }),
    sdk: () => logger,
  };
}

/**
 * Plain lines to `write` (`webhook warn: message (key=value)`); step logs to their own pino logger, and
 * the SDK's records to `sdk` (its warnings and errors as JSON on standard output when not given).
 */
export function plainLog(write: (line: string) => void, opts: { steps: Logger; sdk?: Logger }): ProductLog {
  const sdk = opts.sdk ?? createLogger({ level: 'warn' });
  return {
    lines: () => write,
    records: (source) => plainRecords(write, source),
    steps: (source) => opts.steps.child({ source }),
    sdk: () => sdk,
  };
}

/** Records as plain lines to `write`: `source warn: message (key=value)`. */
export function plainRecords(write: (line: string) => void, source: string | undefined): RecordLog {
  const line = (level: string) => (fields: object, msg: string) => {
    const detail = Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    write(`${source ? `${source} ` : ''}${level === 'info' ? '' : `${level}: `}${msg}${detail ? ` (${detail})` : ''}`);
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}
