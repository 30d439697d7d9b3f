// Whether a provider's worker is alive, as its InferenceProviderConfig shows it (pure).
//
// A provider's worker writes `status.ready` and the `Ready` condition on every heartbeat and "not
// ready" when it stops. A worker that crashes, hangs or loses the API server writes nothing more, so
// its last `ready: true` would stay in `kubectl get inferenceproviderconfigs` for good: the core
// controller marks such a config not ready once its heartbeat is older than the bound
// (worker/provider-liveness.ts), and the worker's next heartbeat, whenever it resumes, makes it ready
// again. The core's selection reads the same bound (withStaleProvidersNotReady), so what users see
// and what the controller decides agree.
import type { Condition, InferenceProviderConfig } from '../api/types.ts';

/** A heartbeat older than this counts as a stopped worker: six of the default 30 s heartbeats. */
export const PROVIDER_STALE_AFTER_MS = 3 * 60_000;

export const PROVIDER_READY_CONDITION = 'Ready';
export const HEARTBEAT_STALE_REASON = 'HeartbeatStale';

/** "3m0s", "45s": the bound as users read it in messages. */
function seconds(ms: number): string {
  const total = Math.round(ms / 1000);
  return total >= 60 ? `${Math.floor(total / 60)}m${total % 60}s` : `${total}s`;
}

/** The condition a running worker writes with each heartbeat. */
export function workerReadyCondition(heartbeatMs: number, lastTransitionTime: string): Condition {
  return {
    type: PROVIDER_READY_CONDITION,
    status: 'True',
    reason: 'WorkerHeartbeating',
    message: `The provider's worker is running and reports every ${seconds(heartbeatMs)}`,
    lastTransitionTime,
  };
}

/** The condition a worker writes as it shuts down. */
export function workerStoppedCondition(lastTransitionTime: string): Condition {
  return { type: PROVIDER_READY_CONDITION, status: 'False', reason: 'WorkerStopped', message: "The provider's worker stopped", lastTransitionTime };
}

/** The condition the core writes for a worker that stopped reporting without saying so. */
export function heartbeatStaleCondition(lastHeartbeat: string, staleAfterMs: number, lastTransitionTime: string): Condition {
  return {
    type: PROVIDER_READY_CONDITION,
    status: 'False',
    reason: HEARTBEAT_STALE_REASON,
    message: `No heartbeat from the provider's worker since ${lastHeartbeat} (more than ${seconds(staleAfterMs)}): it crashed, hangs or cannot reach the API server; new deployments will not select this provider until it reports again`,
    lastTransitionTime,
  };
}

/**
 * The configs that still say ready although their last heartbeat is older than `staleAfterMs`. A
 * config with no heartbeat (written by hand, never by a worker) is taken at its word, as in selection.
 */
export function staleReadyProviders(configs: readonly InferenceProviderConfig[], now: number, staleAfterMs: number): { name: string; lastHeartbeat: string }[] {
  const stale: { name: string; lastHeartbeat: string }[] = [];
  for (const c of configs) {
    const lastHeartbeat = c.status?.lastHeartbeat;
    const beat = lastHeartbeat ? Date.parse(lastHeartbeat) : NaN;
    if (c.status?.ready === true && lastHeartbeat && Number.isFinite(beat) && now - beat > staleAfterMs) stale.push({ name: c.metadata.name ?? '', lastHeartbeat });
  }
  return stale;
}

/**
 * How often the core looks for stale heartbeats: a sixth of the bound (30 s at the default), never
 * more often than once a second. A look reads the watch's cache and writes only what turned stale.
 */
export function livenessCheckIntervalMs(staleAfterMs: number): number {
  return Math.min(30_000, Math.max(1_000, Math.round(staleAfterMs / 6)));
}

/** The lastTransitionTime to keep for `next`: the stored one when the condition's status did not change. */
export function transitionTime(stored: readonly Condition[] | undefined, next: Condition['status'], now: string): string {
  const current = stored?.find((c) => c.type === PROVIDER_READY_CONDITION);
  return current && current.status === next && current.lastTransitionTime ? current.lastTransitionTime : now;
}
