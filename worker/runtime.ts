import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

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
    Runtime.install({ logger: new DefaultLogger(level) });
  } catch {
    // Already installed (by the host program or an earlier worker): keep it.
  }
}
