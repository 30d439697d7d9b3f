import type { KubeConfig } from '@kubernetes/client-node';
import type { InformerSet } from '../kube/informer-set.ts';
import { Worker, type ActivityInterceptorsFactory, type NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import { createCoreActivities } from '../activities/core/create-core-activities.ts';
import { coreTaskQueue } from '../workflows/settings.ts';
import { workflowCode } from './workflow-code.ts';

export { WORKFLOWS_PATH } from './workflow-code.ts';

export interface CoreWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  kc: KubeConfig;
  /** The process's shared informers (reads come from their caches). */
  informers?: InformerSet;
  taskQueuePrefix: string;
  /** A prebuilt bundle (tests share one); when omitted, the build's bundle or the sources (workflow-code.ts). */
  workflowBundle?: WorkflowBundle;
  /** Around every activity (metrics, step logs: observability/). */
  activityInterceptors?: ActivityInterceptorsFactory[];
}

/** The core worker: runs the ModelDeployment workflows and the core's activities. */
export async function createCoreWorker(opts: CoreWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: coreTaskQueue({ taskQueuePrefix: opts.taskQueuePrefix }),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : workflowCode()),
    activities: createCoreActivities({ kc: opts.kc, informers: opts.informers }),
    interceptors: { activity: opts.activityInterceptors ?? [] },
    // Sized for small machines: reconciliation is I/O-bound and each workflow task is short.
    maxConcurrentWorkflowTaskExecutions: 20,
    maxConcurrentActivityTaskExecutions: 40,
  });
}
