// The real KubeRay operator (ray-operator v1.5.0, built by `npm run tools`) reconciles the RayService our
// kuberay provider renders, on the test stack with KubeRay's own CRDs; the simulated KubeRay operator
// does not run in this file. How far it gets here: the operator creates the RayCluster, its head and
// GPU-worker Pods and the head Service; with no kubelet the Pods stay Pending until the pod-readiness
// simulator (our stand-in kubelet) marks them Running and Ready, which makes the RayCluster `ready`.
// It stops there: the next step is the operator calling the head's Ray dashboard to deploy the Serve
// application, at the head Service's cluster DNS name, and no Ray process (nor cluster DNS) runs here.
// So the RayService never reports Running; what is asserted is that our status follows what the real
// operator writes, at each of these steps, and that deleting the ModelDeployment takes it all away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDeployment } from '../../api/types.ts';
import { startKuberayOperator, type RunningOperator } from '../../devstack/operators.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import type { Simulator } from '../../devstack/simulators/simulator.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { renderKuberay } from '../../providers/kuberay/render.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { createDeployment, deleteDeployment, example, getDeployment, waitGone } from '../support/deployments.ts';
import { eventually, stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';

const RAY = { group: 'ray.io', version: 'v1' };
const RAY_SERVICES = { ...RAY, plural: 'rayservices' };
const RAY_CLUSTERS = { ...RAY, plural: 'rayclusters' };
const PODS = { group: '', version: 'v1', plural: 'pods' };
const SERVICES = { group: '', version: 'v1', plural: 'services' };

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
interface Container {
  name: string;
  image?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: { containers: Container[] };
}
interface RayClusterSpec {
  rayVersion?: string;
  headGroupSpec: { template: PodTemplate };
  workerGroupSpecs: { groupName: string; replicas?: number; minReplicas?: number; maxReplicas?: number; template: PodTemplate }[];
}

const spec = <T>(o: AnyObject | undefined) => o?.spec as T;
const statusOf = <T>(o: AnyObject | undefined) => (o?.status ?? {}) as T;
const readyCondition = (rs: AnyObject | undefined) => statusOf<{ conditions?: Condition[] }>(rs).conditions?.find((c) => c.type === 'Ready');

describe('the real KubeRay operator', () => {
  let kube: TestKube;
  let ns: string;
  let operator: RunningOperator | undefined;
  let ctl: TestController | undefined;
  let kubelet: Simulator | undefined;
  const objects = () => new CustomObjects(kube.kc);

  beforeAll(async () => {
    kube = await testKube('e2e-kuberay-op');
    ns = kube.namespace;
    const t0 = Date.now();
    operator = await startKuberayOperator({ kubeconfigPath: stackInfo().kubeconfigPath, stateDir: stackInfo().stateDir, namespaces: [ns] });
    process.stdout.write(`[kuberay-operator] ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (log: ${operator.logFile})\n`);
    ctl = await startTestController({ namespaces: [ns], realOperators: ['ray.io'] });
  });
  afterAll(async () => {
    await kubelet?.stop();
    await ctl?.stop();
    await operator?.stop();
    await kube?.cleanup();
  });

  it('reconciles our RayService into its RayCluster, Pods and Services, and our status follows the RayService', async () => {
    const name = uniqueName('ray');
    const md: ModelDeployment = example('gpu-vllm-dynamo.yaml', ns, (m) => {
      m.metadata.name = name;
      m.spec.provider = { name: 'kuberay' };
      m.spec.resources = { gpu: { count: 2 }, memory: '48Gi' };
      m.spec.podTemplate = { metadata: { labels: { team: 'search' } } };
    });
    await createDeployment(md);

    // Our RayService, stored by the API server under KubeRay's real schema: nothing we rendered pruned.
    const rayService = await eventually('the RayService', () => objects().get({ ...RAY_SERVICES, namespace: ns, name }));
    const rendered = renderKuberay((await getDeployment(ns, name))!, { apiVersion: 'ray.io/v1' }).objects[0]!;
    expect(rayService.spec).toMatchObject(rendered.spec as object);
    expect(spec<{ serveConfigV2: string }>(rayService).serveConfigV2).toContain('meta-llama/Llama-3.1-8B-Instruct');

    // The operator's RayCluster, controlled by our RayService.
    const cluster = await eventually('the RayCluster the operator creates', async () => {
      const list = (await objects().list({ ...RAY_CLUSTERS, namespace: ns })) as AnyObject[];
      return list.find((c) => c.metadata?.ownerReferences?.some((o) => o.kind === 'RayService' && o.name === name && o.uid === rayService.metadata?.uid && o.controller));
    });
    const asked = spec<{ rayClusterConfig: RayClusterSpec }>(rayService).rayClusterConfig;
    const got = spec<RayClusterSpec>(cluster);
    expect(got.rayVersion).toBe(asked.rayVersion);
    const head = got.headGroupSpec.template;
    expect(head.spec.containers[0]).toMatchObject({ image: asked.headGroupSpec.template.spec.containers[0]!.image, resources: asked.headGroupSpec.template.spec.containers[0]!.resources });
    expect(head.metadata?.labels).toMatchObject({ team: 'search' });
    expect(got.workerGroupSpecs).toHaveLength(1);
    const workers = got.workerGroupSpecs[0]!;
    expect(workers).toMatchObject({ groupName: 'gpu-workers', replicas: 1, minReplicas: 1, maxReplicas: 1 });
    expect(workers.template.spec.containers[0]!.resources).toEqual({ requests: { memory: '48Gi' }, limits: { memory: '48Gi', 'nvidia.com/gpu': '2' } });
    expect(workers.template.spec.containers[0]!.image).toBe(asked.workerGroupSpecs[0]!.template.spec.containers[0]!.image);

    // Its Pods (a head and one GPU worker) and the head Service.
    const clusterName = cluster.metadata!.name!;
    const pods = await eventually('a head Pod and a worker Pod', async () => {
      const list = (await objects().list({ ...PODS, namespace: ns, labelSelector: `ray.io/cluster=${clusterName}` })) as AnyObject[];
      return list.length === 2 ? list : undefined;
    });
    const podOf = (type: string) => pods.find((p) => p.metadata?.labels?.['ray.io/node-type'] === type);
    expect(podOf('head')?.metadata?.labels).toMatchObject({ team: 'search', 'ray.io/group': 'headgroup' });
    const workerPod = spec<{ containers: Container[] }>(podOf('worker'));
    expect(workerPod.containers[0]!.resources?.limits).toMatchObject({ 'nvidia.com/gpu': '2', memory: '48Gi' });
    expect(statusOf<{ phase?: string }>(podOf('worker')).phase).toBe('Pending');
    await eventually('the head Service', async () => {
      const list = (await objects().list({ ...SERVICES, namespace: ns, labelSelector: `ray.io/cluster=${clusterName}` })) as AnyObject[];
      return list.find((s) => s.metadata?.labels?.['ray.io/node-type'] === 'head');
    });

    // Our status follows the real RayService's: its Ready condition's message while it is not ready.
    const following = async () => {
      const [live, rs] = await Promise.all([getDeployment(ns, name), objects().get({ ...RAY_SERVICES, namespace: ns, name })]);
      const ready = readyCondition(rs);
      return ready?.status === 'False' && live?.status?.phase === 'Deploying' && live.status.message === ready.message ? { live, rs, ready } : undefined;
    };
    const before = await eventually('the ModelDeployment to show the RayService\'s Ready condition', following);
    expect(before.ready).toMatchObject({ reason: 'Initializing', message: 'RayService is initializing' });
    expect(before.live.status?.provider).toMatchObject({ name: 'kuberay', resourceKind: 'RayService', resourceName: name });
    expect(before.live.status?.replicas).toEqual({ desired: 1, ready: 0 });
    // The operator prepares the cluster as the pending one (promoted to active once Serve is healthy).
    expect(statusOf<{ pendingServiceStatus?: { rayClusterName?: string } }>(before.rs).pendingServiceStatus?.rayClusterName).toBe(clusterName);

    // The stand-in kubelet makes the Pods Running and Ready: the operator marks the RayCluster ready.
    kubelet = await startPodReadinessSimulator(kube.kc, { readyAfterMs: 500, namespaces: [ns], labelSelector: `ray.io/cluster=${clusterName}` });
    const readyCluster = await eventually(
      'the RayCluster to be ready',
      async () => {
        const c = await objects().get({ ...RAY_CLUSTERS, namespace: ns, name: clusterName });
        return statusOf<{ state?: string }>(c).state === 'ready' ? c : undefined;
      },
      90_000,
    );
    expect(statusOf<{ readyWorkerReplicas?: number; desiredGPU?: string }>(readyCluster)).toMatchObject({ readyWorkerReplicas: 1, desiredGPU: '2' });
    // The RayService now waits for its Serve application on the head's dashboard, which no Ray process
    // here serves: it stays initializing, the pending cluster never becomes the active one, and our
    // status keeps following it (Deploying, no ready replica) rather than claiming progress it has not made.
    const after = await eventually('the ModelDeployment to follow the RayService after the cluster is ready', following);
    expect(after.ready.reason).toBe('Initializing');
    expect(after.live.status?.replicas).toEqual({ desired: 1, ready: 0 });

    // Deleting the ModelDeployment deletes our RayService; the garbage collector then takes the
    // operator's RayCluster (owned by the RayService) and its Pods.
    await deleteDeployment(ns, name);
    await waitGone(ns, name);
    await eventually('the RayService to be gone', async () => (await objects().get({ ...RAY_SERVICES, namespace: ns, name })) === undefined);
    await eventually('the RayCluster to be gone', async () => (await objects().get({ ...RAY_CLUSTERS, namespace: ns, name: clusterName })) === undefined);
    await eventually('its Pods to be gone', async () => ((await objects().list({ ...PODS, namespace: ns, labelSelector: `ray.io/cluster=${clusterName}` })) as AnyObject[]).length === 0);
  });
});
