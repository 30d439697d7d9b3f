// The Kybernate node worker (seed 003's node agent): the module's part that `kubeairunway run --node`
// starts, in a DaemonSet's process beside the node's containerd (deploy/components/kybernate-node).

import { Worker, type ActivityInterceptorsFactory, type NativeConnection } from '@temporalio/worker';
import { createNodeActivities } from '../../activities/kybernate/node-activities.ts';
import { nodeTaskQueue } from '../../api/kybernate/constants.ts';
import { ContainerdClient } from '../../containerd/client.ts';
import { KUBERNETES_NAMESPACE } from '../../containerd/container-id.ts';
import type { PartContext, RunningPart } from '../kind-module.ts';

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
 * The worker beside containerd on one node: only activities, on the node's own task queue, so a
 * checkpoint of a pod's container runs where its containerd socket is.
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

/** The node worker on the controller's connection, running until stopped; containerd's client closes after it. */
export async function startNodeWorker(ctx: PartContext, node: { name: string; containerdSocket: string }): Promise<RunningPart> {
  const containerd = new ContainerdClient({ socket: node.containerdSocket, namespace: KUBERNETES_NAMESPACE });
  const worker = await createNodeWorker({
    connection: ctx.connection,
    namespace: ctx.temporalNamespace,
    taskQueuePrefix: ctx.taskQueuePrefix,
    nodeName: node.name,
    containerd,
    activityInterceptors: ctx.activityInterceptors,
  }).catch((err: unknown) => {
    containerd.close();
    throw err;
  });
  const run = worker.run().catch((err: Error) => ctx.log(`worker on ${worker.options.taskQueue} stopped with an error: ${err.message}`));
  ctx.log(`node worker running for node ${node.name} on ${node.containerdSocket}`);
  return {
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await run;
      containerd.close();
    },
  };
}
