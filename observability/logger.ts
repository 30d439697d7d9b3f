// pino JSON logs for the controller process, and the adapters that route the Temporal SDK's logs and
// the components' plain line logs into the same stream.

import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { pino, type DestinationStream, type Logger } from 'pino';
import { takeSdkLogLine } from './temporal-link.ts';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

export function createLogger(opts: { level?: string; destination?: DestinationStream } = {}): Logger {
  const options = { level: opts.level ?? 'info', base: { component: 'kubeairunway' }, timestamp: pino.stdTimeFunctions.isoTime };
  // Standard output written asynchronously: a step's log line must not block the event loop on a write
  // per line (a measurable part of a burst's CPU). Buffered lines are flushed when the process exits.
  return pino(options, opts.destination ?? pino.destination({ dest: 1, sync: false }));
}

const EXPECTED_WARNING = 'No workflows registered, not polling for workflow tasks';

const PINO_LEVEL = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const satisfies Record<LogLevel, string>;

/** The Temporal SDK's logger interface over pino (SDK log metadata becomes pino fields). */
export function temporalLogger(logger: Logger): TemporalLogger {
  const child = logger.child({ source: 'temporal-sdk' });
  const write = (level: LogLevel, message: string, meta?: LogMetadata) => {
    // The SDK logs every activity and workflow task at DEBUG: below the level, nothing else is looked at.
    const pinoLevel = PINO_LEVEL[level] ?? 'error';
    if (!child.isLevelEnabled(pinoLevel)) return;
    const fields = meta ?? {};
    // A provider worker serves activities only, by design; the SDK warns about it at every start.
    if (message === EXPECTED_WARNING) return child.debug(fields, message);
    // A lost server is said once by the process's Temporal link, not once per poll retry.
    if (takeSdkLogLine(message, meta)) return child.debug(fields, message);
    child[pinoLevel](fields, message);
  };
  return {
    log: write,
    trace: (m, meta) => write('TRACE', m, meta),
    debug: (m, meta) => write('DEBUG', m, meta),
    info: (m, meta) => write('INFO', m, meta),
    warn: (m, meta) => write('WARN', m, meta),
    error: (m, meta) => write('ERROR', m, meta),
  };
}

/** The `log(line)` callback the watcher, workers and registration take, as pino info lines. */
export function lineLog(logger: Logger, source: string): (line: string) => void {
  const child = logger.child({ source });
  return (line) => child.info(line);
}
