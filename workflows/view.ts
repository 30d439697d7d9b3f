import type { Phase } from '../api/types.ts';

export type Step =
  | 'read'
  | 'finalizer'
  | 'validate'
  | 'select-provider'
  | 'compatibility'
  | 'apply'
  | 'observe'
  | 'switch-provider'
  | 'cleanup'
  | 'idle'
  | 'paused';

export interface StepError {
  step: Step;
  /** Stable failure type, e.g. `KubeForbidden` or `ProviderUnavailable`. */
  type: string;
  message: string;
  at: string;
}

/** The workflow's own view of its deployment, returned by the `view` query and kept in the memo. */
export interface DeploymentView {
  namespace: string;
  name: string;
  uid: string;
  phase: Phase | undefined;
  message: string | undefined;
  provider: string | undefined;
  /** What the workflow is doing or waiting for now. */
  step: Step;
  waitingFor: string | undefined;
  lastError: StepError | undefined;
  /** Consecutive failed passes (drives the backoff). */
  failures: number;
  observedGeneration: number | undefined;
  deleting: boolean;
  paused: boolean;
  passes: number;
}

export interface RetryResult {
  /** The step that had failed or was waiting, if any. */
  retried: Step | undefined;
  previousError: StepError | undefined;
  /** How the new attempt ended. */
  outcome: 'succeeded' | 'failed' | 'waiting';
  error: StepError | undefined;
}
