import { DefaultLogger, Runtime, type LogEntry, type LogLevel } from '@temporalio/worker';

// A provider worker serves activities only, by design; the SDK warns about that at every start.
const EXPECTED_WARNING = 'No workflows registered';

let installed = false;

/**
 * Installs the Temporal SDK runtime once per process with a quieter logger than its INFO default (one
 * line per worker state change is noise next to the controller's own logs). A runtime already installed
 * by the embedding program is kept.
 */
export function installRuntime(level: LogLevel = 'WARN'): void {
  if (installed) return;
  installed = true;
  try {
    Runtime.install({
      logger: new DefaultLogger(level, (entry: LogEntry) => {
        if (entry.message.startsWith(EXPECTED_WARNING)) return;
        process.stderr.write(`${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}\n`);
      }),
    });
  } catch {
    // Already installed (by the host program or an earlier worker): keep it.
  }
}
