import { Worker, type ActivityInterceptorsFactory, type NativeConnection } from '@temporalio/worker';
import { createNodeActivities } from '../activities/kybernate/node-activities.ts';
import { nodeTaskQueue } from '../api/kybernate/constants.ts';
import type { ContainerdClient } from '../containerd/client.ts';

export interface NodeWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueuePrefix: string;
  /** The node this process runs on (the Kubernetes node name): its queue is `<prefix>-kybernate-node-<node>`. */
  nodeName: string;
  containerd: ContainerdClient;
  activityInterceptors?: ActivityInterceptorsFactory[];
}

/**
 * The worker beside containerd on one node (seed 003's node agent): only activities, on the node's own
 * task queue, so a checkpoint of a pod's container runs where its containerd socket is.
 */
export async function createNodeWorker(opts: NodeWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: nodeTaskQueue(opts.taskQueuePrefix, opts.nodeName),
    activities: createNodeActivities(opts.containerd),
    interceptors: { activity: opts.activityInterceptors ?? [] },
    // A dump holds a whole process image in flight: a few at a time per node.
    maxConcurrentActivityTaskExecutions: 4,
  });
}
