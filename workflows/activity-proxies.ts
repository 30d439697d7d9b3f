import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { CoreActivities } from '../activities/core/types.ts';
import type { ProviderActivities } from '../activities/provider/types.ts';
import { providerTaskQueue, type ReconcileSettings } from './settings.ts';

// Timeouts and retries of every activity, declared once. An activity retries a few quick times for
// transient errors; after that the pass fails and the workflow's own backoff (or a retry signal) takes over.

const ACTIVITY_RETRY = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '10s',
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['KubeInvalid', 'KubeForbidden', 'KubeNoKindMatch', 'InvalidSpec'],
};
const CORE_ACTIVITY_TIMEOUT = '30s';
const PROVIDER_ACTIVITY_TIMEOUT = '30s';

/** The core's steps as activities on the core queue: how histories recorded before local steps ran them. */
export const coreActivities = proxyActivities<CoreActivities>({ startToCloseTimeout: CORE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

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
export function providerActivities(settings: ReconcileSettings, provider: string, scheduleToStartMs?: number): ProviderActivities {
  return proxyActivities<ProviderActivities>({
    taskQueue: providerTaskQueue(settings, provider),
    scheduleToStartTimeout: scheduleToStartMs ?? settings.providerScheduleToStart,
    startToCloseTimeout: PROVIDER_ACTIVITY_TIMEOUT,
    retry: ACTIVITY_RETRY,
  });
}
