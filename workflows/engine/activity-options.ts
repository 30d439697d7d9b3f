// Timeouts and retries of every kind's activities, declared once. An activity retries a few quick
// times for transient errors; after that the pass fails and the loop's own backoff (or a retry) takes over.
// The types it never retries are the permanent ones of contract/failure-types.ts, where the error
// adapters (kube/errors.ts …) take their retry class from too.
import { NON_RETRYABLE_FAILURE_TYPES } from '../../contract/failure-types.ts';

export const ACTIVITY_RETRY = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '10s',
  maximumAttempts: 5,
  nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
};

/** An activity that talks to the API server only (a few calls). */
export const KUBE_ACTIVITY_TIMEOUT = '30s';
