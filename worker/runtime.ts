import { Runtime } from '@temporalio/worker';
import { temporalLogger, type Logger } from '../observability/logger.ts';

let installed = false;

/**
 * Installs the Temporal SDK runtime once per process, its logger the product's: the SDK's records and
 * its Rust core's forwarded lines come out as the product's JSON lines (`source: "temporal-sdk"`, the
 * SDK's `sdkComponent` saying `core` or `worker`), never as plain text of their own among them. The core
 * forwards WARN and up; the logger's level filters the rest. A runtime already installed by the embedding
 * program is kept.
 */
export function installRuntime(logger: Logger, opts: { shutdownSignals?: NodeJS.Signals[] } = {}): void {
  if (installed) return;
  installed = true;
  try {
    Runtime.install({
      logger: temporalLogger(logger),
      ...(opts.shutdownSignals ? { shutdownSignals: opts.shutdownSignals } : {}),
      telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
    });
  } catch {
    // Already installed (by the host program or an earlier worker): keep it.
  }
}
