import { DefaultLogger, Runtime, type LogEntry, type LogLevel } from '@temporalio/worker';
import { takeSdkLogLine } from '../observability/temporal-link.ts';

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
        // A lost server is said once by the process's Temporal link, not once per poll retry.
        if (takeSdkLogLine(entry.message, entry.meta)) return;
        process.stderr.write(`${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}\n`);
      }),
      // The core's own lines (poll retries among them) come through the logger above, not to stderr directly.
      telemetryOptions: { logging: { filter: { core: level, other: 'ERROR' }, forward: {} } },
    });
  } catch {
    // Already installed (by the host program or an earlier worker): keep it.
  }
}
