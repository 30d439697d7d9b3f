import type { AnyObject } from '../../kube/custom-objects.ts';
import type { UpstreamScript, WorkloadObject } from './simulator.ts';

// What each upstream operator writes into its resource's status, in the shapes those operators use.

const now = () => new Date().toISOString();
const condition = (type: string, status: 'True' | 'False' | 'Unknown', reason: string, message: string) => ({ type, status, reason, message, lastTransitionTime: now() });

/** KAITO's label on everything it runs for a Workspace, and its inference server's port. */
export const KAITO_WORKSPACE_LABEL = 'kaito.sh/workspace';
const KAITO_INFERENCE_PORT = 5000;
/** A stand-in for the preset image KAITO picks (never pulled here: no kubelet runs). */
export const KAITO_PRESET_IMAGE = 'mcr.microsoft.com/aks/kaito/kaito-base:0.0.1';

interface WorkspaceInference {
  preset?: { name?: string };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: { containers?: { ports?: { containerPort?: number }[] }[] } & Record<string, unknown> };
}

/**
 * What KAITO runs for a Workspace: a Deployment and a Service named after it, in its namespace, both
 * controlled by it (deleting the Workspace collects them) and selecting the pods by the workspace label.
 * A preset runs one container, named after the Workspace, on KAITO's image; a template runs the
 * template's pod spec as it is.
 */
export function kaitoWorkload(ws: AnyObject): WorkloadObject[] {
  const name = ws.metadata!.name!;
  const namespace = ws.metadata!.namespace!;
  const labels = { [KAITO_WORKSPACE_LABEL]: name };
  const ownerReferences = [{ apiVersion: ws.apiVersion ?? 'kaito.sh/v1beta1', kind: ws.kind ?? 'Workspace', name, uid: ws.metadata!.uid!, controller: true, blockOwnerDeletion: true }];
  const metadata = { name, namespace, labels, ownerReferences };
  const inference = ((ws as { inference?: WorkspaceInference }).inference ?? {}) as WorkspaceInference;
  const template = inference.template;
  const podSpec = template?.spec ?? { containers: [{ name, image: KAITO_PRESET_IMAGE, ports: [{ containerPort: KAITO_INFERENCE_PORT }] }] };
  const targetPort = podSpec.containers?.[0]?.ports?.[0]?.containerPort ?? KAITO_INFERENCE_PORT;
  const replicas = (ws as { resource?: { count?: number } }).resource?.count ?? 1;
  return [
    {
      plural: 'deployments',
      object: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata,
        spec: {
          replicas,
          selector: { matchLabels: labels },
          template: { metadata: { ...template?.metadata, labels: { ...template?.metadata?.labels, ...labels } }, spec: podSpec },
        },
      },
    },
    {
      plural: 'services',
      object: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata,
        spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort, protocol: 'TCP' }] },
      },
    },
  ];
}

/** KAITO: resource, then inference readiness, then WorkspaceSucceeded; the inference workload from the start. */
export const kaitoWorkspace: UpstreamScript = {
  group: 'kaito.sh',
  version: 'v1beta1',
  plural: 'workspaces',
  workload: { fieldManager: 'kaito-simulator', objects: kaitoWorkload },
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

/**
 * Dynamo's per-component replica status, in the map the object's version declares: `status.components`
 * (v1beta1, from `spec.components[]`) or `status.services` (v1alpha1, from `spec.services`), each entry
 * with the fields that schema requires (componentKind, replicas, updatedReplicas; v1alpha1 also
 * componentName). Single-node components without Grove run as Deployments named `<graph>-<name>`.
 */
export function dynamoComponentStatus(obj: AnyObject, ready: boolean): Record<string, unknown> {
  const spec = (obj.spec ?? {}) as { components?: unknown; services?: unknown };
  const graph = obj.metadata?.name ?? '';
  const entry = (name: string, desired: unknown, v1alpha1: boolean) => {
    const replicas = typeof desired === 'number' && Number.isInteger(desired) && desired >= 0 ? desired : 1;
    const componentName = `${graph}-${name.toLowerCase()}`;
    return {
      componentKind: 'Deployment',
      ...(v1alpha1 ? { componentName } : {}),
      componentNames: [componentName],
      replicas,
      updatedReplicas: replicas,
      readyReplicas: ready ? replicas : 0,
      availableReplicas: ready ? replicas : 0,
    };
  };
  if (Array.isArray(spec.components)) {
    const listed = (spec.components as { name?: unknown; replicas?: unknown }[]).filter((c) => typeof c?.name === 'string');
    return { components: Object.fromEntries(listed.map((c) => [c.name as string, entry(c.name as string, c.replicas, false)])) };
  }
  const services = (spec.services && typeof spec.services === 'object' ? spec.services : {}) as Record<string, { replicas?: unknown } | null>;
  return { services: Object.fromEntries(Object.entries(services).map(([name, svc]) => [name, entry(name, svc?.replicas, true)])) };
}

/**
 * Dynamo: `state` goes pending → successful (or failed), with the Ready condition saying why, as the
 * operator does (its states are initializing, pending, successful and failed; there is no
 * `status.message`: a failure's words are in the Ready condition). It works in whichever of its
 * versions the installed CRD serves, v1beta1 first, as the controller renders.
 */
export const dynamoGraphDeployment: UpstreamScript = {
  group: 'nvidia.com',
  version: 'v1alpha1',
  versions: ['v1beta1', 'v1alpha1'],
  plural: 'dynamographdeployments',
  progressing: (obj) => ({ state: 'pending', ...dynamoComponentStatus(obj, false), conditions: [condition('Ready', 'False', 'ComponentsNotReady', 'Components are deploying')] }),
  ready: (obj) => ({ state: 'successful', ...dynamoComponentStatus(obj, true), conditions: [condition('Ready', 'True', 'AllResourcesAreReady', 'All resources are ready')] }),
  failed: (obj, message) => ({ state: 'failed', ...dynamoComponentStatus(obj, false), conditions: [condition('Ready', 'False', 'Failed', message)] }),
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
