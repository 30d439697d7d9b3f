import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { CoreActivities } from '../../contract/core-activities.ts';
import type { ProviderActivities } from '../../contract/provider-activities.ts';
import { ACTIVITY_RETRY, KUBE_ACTIVITY_TIMEOUT } from '../engine/activity-options.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { CleanupOutcome, ReconcileOutcome } from '../../contract/provider-activities.ts';
import type { EngineSettings } from '../engine/settings.ts';
import { inProcessActivityType, providerTaskQueue } from './settings.ts';

// The ModelDeployment workflow's activities: the core's steps and each provider's, with the timeouts
// and retries every kind shares (engine/activity-options.ts).

const CORE_ACTIVITY_TIMEOUT = KUBE_ACTIVITY_TIMEOUT;
const PROVIDER_ACTIVITY_TIMEOUT = '30s';

/**
 * The core's steps as local activities: run by the worker that runs the workflow, inside its workflow
 * task, each recorded in history as a marker with its result (the Temporal UI lists them with their
 * times). They talk to the API server only, so nothing is gained by a round trip through a task queue.
 */
export const localCoreActivities = proxyLocalActivities<CoreActivities>({ startToCloseTimeout: CORE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

/**
 * A provider's activities, on its own task queue. `scheduleToStart` bounds the wait for a worker: with
 * none polling, the step fails as "provider unavailable" instead of hanging.
 */
export function providerActivities(settings: EngineSettings, provider: string, scheduleToStartMs?: number): ProviderActivities {
  return proxyActivities<ProviderActivities>({
    taskQueue: providerTaskQueue(settings, provider),
    scheduleToStartTimeout: scheduleToStartMs ?? settings.providerScheduleToStart,
    startToCloseTimeout: PROVIDER_ACTIVITY_TIMEOUT,
    retry: ACTIVITY_RETRY,
  });
}

type InProcessCall = (ref: ReadRef) => Promise<ReconcileOutcome | CleanupOutcome>;

const inProcess = proxyLocalActivities<Record<string, InProcessCall>>({
  startToCloseTimeout: PROVIDER_ACTIVITY_TIMEOUT,
  // A worker that does not run the provider (the workflow moved to another replica) says so at once:
  // NOT_SERVED is among ACTIVITY_RETRY's non-retryable types (contract/failure-types.ts).
  retry: ACTIVITY_RETRY,
});

/**
 * A provider's activity as a local activity, for a provider whose worker runs in the process of the
 * worker running the workflow: the same call, without a round trip through its task queue.
 */
export function inProcessCall<A extends 'reconcileResource' | 'cleanupResources'>(provider: string, activity: A): ProviderActivities[A] {
  return inProcess[inProcessActivityType(provider, activity)] as ProviderActivities[A];
}
