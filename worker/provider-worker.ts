import type { KubeConfig } from '@kubernetes/client-node';
import type { AnyObject } from '../kube/custom-objects.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import { Worker, type ActivityInterceptorsFactory, type NativeConnection } from '@temporalio/worker';
import { createProviderActivities } from '../activities/provider/create-provider-activities.ts';
import type { ProviderDefinition } from '../providers/contract.ts';
import { providerTaskQueue } from '../workflows/settings.ts';

export interface ProviderWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  kc: KubeConfig;
  /** The process's shared informers (reads come from their caches). */
  informers?: InformerSet;
  /** Told about each provider resource this worker writes (see ProviderActivityDeps.wrote). */
  wrote?: (stored: AnyObject) => void;
  provider: ProviderDefinition;
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
    activities: createProviderActivities(opts.provider, { kc: opts.kc, informers: opts.informers, wrote: opts.wrote }),
    interceptors: { activity: opts.activityInterceptors ?? [] },
    maxConcurrentActivityTaskExecutions: 20,
  });
}
