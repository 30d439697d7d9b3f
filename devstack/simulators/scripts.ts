import type { AnyObject } from '../../kube/custom-objects.ts';
import type { UpstreamScript } from './simulator.ts';

// What each upstream operator writes into its resource's status, in the shapes those operators use.

const now = () => new Date().toISOString();
const condition = (type: string, status: 'True' | 'False' | 'Unknown', reason: string, message: string) => ({ type, status, reason, message, lastTransitionTime: now() });

/** KAITO: resource, then inference readiness, then WorkspaceSucceeded. */
export const kaitoWorkspace: UpstreamScript = {
  group: 'kaito.sh',
  version: 'v1beta1',
  plural: 'workspaces',
  progressing: () => ({
    conditions: [
      condition('ResourceReady', 'True', 'ResourcesReady', 'Nodes are ready'),
      condition('InferenceReady', 'False', 'InferencePodsNotReady', 'Inference workload is starting'),
    ],
  }),
  ready: () => ({
    conditions: [
      condition('ResourceReady', 'True', 'ResourcesReady', 'Nodes are ready'),
      condition('InferenceReady', 'True', 'InferenceReady', 'Inference is ready'),
      condition('WorkspaceSucceeded', 'True', 'WorkspaceSucceeded', 'Workspace is ready'),
    ],
  }),
  failed: (_obj, message) => ({
    conditions: [
      condition('ResourceReady', 'False', 'ResourceFailed', message),
      condition('WorkspaceSucceeded', 'False', 'WorkspaceFailed', message),
    ],
  }),
};

function dynamoWorkers(obj: AnyObject, ready: boolean): Record<string, unknown> {
  const services = ((obj.spec as { services?: Record<string, { replicas?: number }> } | undefined)?.services ?? {}) as Record<string, { replicas?: number }>;
  return Object.fromEntries(
    Object.entries(services).map(([name, svc]) => {
      const replicas = svc.replicas ?? 1;
      return [name, { replicas, readyReplicas: ready ? replicas : 0, availableReplicas: ready ? replicas : 0 }];
    }),
  );
}

/** Dynamo: `state` goes deploying → successful (or failed with a message). */
export const dynamoGraphDeployment: UpstreamScript = {
  group: 'nvidia.com',
  version: 'v1alpha1',
  plural: 'dynamographdeployments',
  progressing: (obj) => ({ state: 'deploying', services: dynamoWorkers(obj, false), conditions: [condition('Ready', 'False', 'Deploying', 'Services are deploying')] }),
  ready: (obj) => ({ state: 'successful', services: dynamoWorkers(obj, true), conditions: [condition('Ready', 'True', 'AllServicesReady', 'All services are ready')] }),
  failed: (obj, message) => ({ state: 'failed', message, services: dynamoWorkers(obj, false), conditions: [condition('Ready', 'False', 'Failed', message)] }),
};

function rayWorkers(obj: AnyObject): number {
  const groups = ((obj.spec as { rayClusterConfig?: { workerGroupSpecs?: { replicas?: number }[] } } | undefined)?.rayClusterConfig?.workerGroupSpecs ?? []) as { replicas?: number }[];
  return groups.reduce((sum, g) => sum + (g.replicas ?? 0), 0);
}

/** KubeRay: serviceStatus Pending → Running (or Failed, with the Serve application's message). */
export const kuberayRayService: UpstreamScript = {
  group: 'ray.io',
  version: 'v1',
  plural: 'rayservices',
  progressing: () => ({ serviceStatus: 'Pending', activeServiceStatus: { rayClusterStatus: { readyWorkerReplicas: 0 } } }),
  ready: (obj) => ({
    serviceStatus: 'Running',
    activeServiceStatus: {
      rayClusterStatus: { readyWorkerReplicas: rayWorkers(obj), availableWorkerReplicas: rayWorkers(obj) },
      applicationStatuses: { llm: { status: 'RUNNING' } },
    },
  }),
  failed: (_obj, message) => ({
    serviceStatus: 'Failed',
    activeServiceStatus: { rayClusterStatus: { readyWorkerReplicas: 0 }, applicationStatuses: { llm: { status: 'DEPLOY_FAILED', message } } },
  }),
};

export const UPSTREAM_SCRIPTS: readonly UpstreamScript[] = [kaitoWorkspace, dynamoGraphDeployment, kuberayRayService];
