// Where a process's start spends its time, said as it goes: one record per step, `{ phase, ms }`. A slow
// start (a rolling upgrade or a failover waits for it) is then read off the log instead of guessed.

/** Where the records go: a pino logger, or the parts' RecordLog, fits. */
export interface PhaseLog {
  info(fields: object, msg: string): void;
}

/** Runs one step of a start and records how long it took. */
export type TimePhase = <T>(phase: string, step: () => Promise<T> | T) => Promise<T>;

/** A step timer that records to `log`; a failed step records nothing (its error says enough). */
export function startPhases(log: PhaseLog, now: () => number = () => performance.now()): TimePhase {
  return async (phase, step) => {
    const t0 = now();
    const result = await step();
    log.info({ phase, ms: Math.round(now() - t0) }, 'start phase');
    return result;
  };
}

/** A timer that records nothing: for callers that do not ask. */
export const UNTIMED: TimePhase = async (_phase, step) => step();
