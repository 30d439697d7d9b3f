import { Worker, type ActivityInterceptorsFactory, type NativeConnection } from '@temporalio/worker';
import type { ProviderActivities } from '../contract/provider-activities.ts';
import type { ProviderDefinition } from '../providers/contract.ts';
import { providerTaskQueue } from '../workflows/model-deployment/settings.ts';

export interface ProviderWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  provider: ProviderDefinition;
  /** The provider's activities (createProviderActivities); a core worker in the same process may serve them too. */
  activities: ProviderActivities;
  taskQueuePrefix: string;
  /** Around every activity (metrics, step logs: observability/). */
  activityInterceptors?: ActivityInterceptorsFactory[];
}

/** One provider's worker: serves the provider activities on the provider's own task queue. */
export async function createProviderWorker(opts: ProviderWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: providerTaskQueue({ taskQueuePrefix: opts.taskQueuePrefix }, opts.provider.name),
    activities: opts.activities,
    interceptors: { activity: opts.activityInterceptors ?? [] },
    maxConcurrentActivityTaskExecutions: 20,
  });
}
