// The durations and names the loop and every kind's cleanup wait on, declared once. They are workflow
// inputs (not constants baked into the code) so tests can shorten them and operators can tune them per
// installation. A kind's own settings live with the kind; workflows/settings.ts puts them together.

export interface EngineSettings {
  /** How long deletion may wait for a kind's cleanup before the finalizer is removed anyway (seed: 5 minutes). */
  cleanupTimeout: string;
  /** Safety-net re-check of an idle object. Changes arrive by watch; this only bounds a missed event. */
  resyncPeriod: string;
  /** First wait after a failed step; doubles up to `maxRetryDelay`. A `retry` signal cuts it short. */
  retryDelay: string;
  maxRetryDelay: string;
  /** How long an activity on another worker's task queue (a provider's, a node's) may wait for that worker before the step fails as unavailable. */
  providerScheduleToStart: string;
  /** Re-check interval while waiting for something no watch reports (a resource to finish deleting). */
  pollInterval: string;
  /** Prefix of every task queue, so several installations (or tests) can share one Temporal namespace. */
  taskQueuePrefix: string;
  /** Continue-as-new once the history holds this many events (the server may suggest it earlier). */
  maxHistoryEvents: number;
}

export const ENGINE_DEFAULTS: EngineSettings = {
  cleanupTimeout: '5m',
  resyncPeriod: '10m',
  retryDelay: '5s',
  maxRetryDelay: '5m',
  providerScheduleToStart: '30s',
  pollInterval: '5s',
  taskQueuePrefix: 'kubeairunway',
  maxHistoryEvents: 1000,
};

export function coreTaskQueue(settings: Pick<EngineSettings, 'taskQueuePrefix'>): string {
  return `${settings.taskQueuePrefix}-core`;
}
