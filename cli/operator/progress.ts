// Progress of a long operation, on stderr so stdout stays clean for -o json/yaml: one line when it
// starts, then a line every few seconds while it lasts.

import type { CliIO } from '../io.ts';
import { formatDuration } from '../../present/durations.ts';

export interface Progress {
  /** Milliseconds since the start. */
  elapsed(): number;
  stop(): number;
}

export function startProgress(io: Pick<CliIO, 'stderr'>, message: string, waitingFor: string, intervalMs = 5_000): Progress {
  const started = Date.now();
  io.stderr(`${message}\n`);
  const timer = setInterval(() => io.stderr(`  … still waiting for ${waitingFor} (${formatDuration(Date.now() - started)})\n`), intervalMs);
  timer.unref();
  return {
    elapsed: () => Date.now() - started,
    stop: () => {
      clearInterval(timer);
      return Date.now() - started;
    },
  };
}
