// Timeouts and retries of every kind's activities, declared once. An activity retries a few quick
// times for transient errors; after that the pass fails and the loop's own backoff (or a retry) takes over.

export const ACTIVITY_RETRY = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '10s',
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['KubeInvalid', 'KubeForbidden', 'KubeNoKindMatch', 'InvalidSpec'],
};

/** An activity that talks to the API server only (a few calls). */
export const KUBE_ACTIVITY_TIMEOUT = '30s';
