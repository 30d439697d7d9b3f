// What a completed reconciliation step means for metrics and logs. Some steps complete normally yet
// report a problem the workflow then waits on (an invalid spec, no provider, a missing CRD): those count
// as reconciliation errors too, with a type an operator can alert on. Each kind's module says what its
// steps mean (its `stepOutcomes`, kinds/<module>/); a step no module reads has no outcome.

import { KIND_MODULES } from '../kinds/index.ts';
import type { StepOutcomeReader } from '../kinds/kind-module.ts';

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

/** Every registered reader by activity type (a test checks that no two modules read the same one). */
const READERS: ReadonlyMap<string, StepOutcomeReader> = new Map(KIND_MODULES.flatMap((m) => Object.entries(m.stepOutcomes ?? {})));

export function stepOutcome(activity: string, result: unknown): StepOutcome {
  if (result === null || result === undefined || typeof result !== 'object') return { fields: {} };
  return READERS.get(activity)?.(result) ?? { fields: {} };
}
