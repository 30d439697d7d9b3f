// Every duration the reconciliation waits on, declared once. They are workflow inputs (not constants
// baked into the code) so tests can shorten them and operators can tune them per installation.

export interface ReconcileSettings {
  /** How long deletion may wait for the provider's cleanup before the finalizer is removed anyway (seed: 5 minutes). */
  cleanupTimeout: string;
  /** Safety-net re-check of an idle deployment. Changes arrive by watch; this only bounds a missed event. */
  resyncPeriod: string;
  /** First wait after a failed step; doubles up to `maxRetryDelay`. A `retry` signal cuts it short. */
  retryDelay: string;
  maxRetryDelay: string;
  /** How long a provider activity may wait for a worker on the provider's task queue before status says it is unavailable. */
  providerScheduleToStart: string;
  /** Re-check interval while waiting for something no watch reports (a provider resource to finish deleting). */
  pollInterval: string;
  /** Whether the built-in provider selector runs (seed: `--enable-provider-selector`). */
  providerSelectorEnabled: boolean;
  /** Prefix of every task queue, so several installations (or tests) can share one Temporal namespace. */
  taskQueuePrefix: string;
  /** Continue-as-new once the history holds this many events (the server may suggest it earlier). */
  maxHistoryEvents: number;
  /** AsyncActor binding: the owner removed our containers for the n-th time; re-inject after n × this (seed 002: 5s). */
  conflictBackoff: string;
}

export const DEFAULT_SETTINGS: ReconcileSettings = {
  cleanupTimeout: '5m',
  resyncPeriod: '10m',
  retryDelay: '5s',
  maxRetryDelay: '5m',
  providerScheduleToStart: '30s',
  pollInterval: '5s',
  providerSelectorEnabled: true,
  taskQueuePrefix: 'kubeairunway',
  maxHistoryEvents: 1000,
  conflictBackoff: '5s',
};

export function coreTaskQueue(settings: Pick<ReconcileSettings, 'taskQueuePrefix'>): string {
  return `${settings.taskQueuePrefix}-core`;
}

export function providerTaskQueue(settings: Pick<ReconcileSettings, 'taskQueuePrefix'>, provider: string): string {
  return `${settings.taskQueuePrefix}-provider-${provider}`;
}

/**
 * The activity type under which a core worker serves a provider running in its own process, e.g.
 * `dynamo:reconcileResource`: the workflow runs it as a local activity, no task queue in between.
 */
export function inProcessActivityType(provider: string, activity: string): string {
  return `${provider}:${activity}`;
}

/** The failure type of an activity a core worker does not serve (worker/core-worker.ts `notServed`). */
export const NOT_SERVED = 'ActivityNotServed';

/** The provider and activity of an in-process activity type; no provider for any other type. */
export function splitActivityType(type: string): { provider?: string; activity: string } {
  const at = type.indexOf(':');
  return at < 0 ? { activity: type } : { provider: type.slice(0, at), activity: type.slice(at + 1) };
}
