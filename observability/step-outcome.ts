// What a completed reconciliation step means for metrics and logs. Some steps complete normally yet
// report a problem the workflow then waits on (an invalid spec, no provider, a missing CRD): those count
// as reconciliation errors too, with a type an operator can alert on. Each kind's module says what its
// steps mean (its `stepOutcomes`, kinds/<module>/); the registrations sit above this layer, so their
// readers are handed in (kinds/index.ts gathers them as STEP_OUTCOMES). A step no reader reads has no outcome.

export interface StepOutcome {
  /** The deployment's provider, when the step's result names it. */
  provider?: string;
  /** A provider selection to count. */
  selected?: { provider: string; reason: string };
  /** Set when the step reports a problem without failing. */
  errorType?: string;
  /** A few words for the log line. */
  summary?: string;
  /** Structured log fields. */
  fields: Record<string, unknown>;
}

/** Reads a finished step's result for metrics and logs. */
export type StepOutcomeReader = (result: unknown) => StepOutcome;

/** Readers by activity type. */
export type StepOutcomeReaders = ReadonlyMap<string, StepOutcomeReader>;

export function stepOutcome(readers: StepOutcomeReaders, activity: string, result: unknown): StepOutcome {
  if (result === null || result === undefined || typeof result !== 'object') return { fields: {} };
  return readers.get(activity)?.(result) ?? { fields: {} };
}
