import type { KubeConfig } from '@kubernetes/client-node';
import { Worker, type NativeConnection } from '@temporalio/worker';
import { createProviderActivities } from '../activities/provider/create-provider-activities.ts';
import type { ProviderDefinition } from '../providers/contract.ts';
import { providerTaskQueue } from '../workflows/settings.ts';

export interface ProviderWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  kc: KubeConfig;
  provider: ProviderDefinition;
  taskQueuePrefix: string;
}

/** One provider's worker: serves the provider activities on the provider's own task queue. */
export async function createProviderWorker(opts: ProviderWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: providerTaskQueue({ taskQueuePrefix: opts.taskQueuePrefix }, opts.provider.name),
    activities: createProviderActivities(opts.provider, { kc: opts.kc }),
    maxConcurrentActivityTaskExecutions: 20,
  });
}
