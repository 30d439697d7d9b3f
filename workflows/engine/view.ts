/** A failed step of a pass, described by its stable failure type (e.g. `KubeForbidden`, `ProviderUnavailable`). */
export interface StepError {
  step: string;
  type: string;
  message: string;
  at: string;
}

/**
 * What every kind's workflow knows of its object and answers the `view` query with (and keeps in its
 * memo): the loop's own bookkeeping plus the phase and message its passes reported. Kinds add fields.
 */
export interface LoopView {
  namespace: string;
  name: string;
  uid: string;
  phase: string | undefined;
  message: string | undefined;
  /** What the workflow is doing or waiting for now. */
  step: string;
  waitingFor: string | undefined;
  lastError: StepError | undefined;
  /** Consecutive failed passes (drives the backoff). */
  failures: number;
  observedGeneration: number | undefined;
  passes: number;
}

export interface RetryResult {
  /** The step that had failed or was waiting, if any. */
  retried: string | undefined;
  previousError: StepError | undefined;
  /** How the new attempt ended. */
  outcome: 'succeeded' | 'failed' | 'waiting';
  error: StepError | undefined;
}
