// The install's ServiceAccounts are enough: kubeairunway runs whole lifecycles on their real tokens
// (TokenRequest), so every Kubernetes call the code makes is authorized exactly as in a pod. With a
// missing verb a deployment would never reach Running, or never be released on deletion; a
// FlameCluster would never get its pods, or never scale down or replace one; an AsyncActor would never
// get its workload, or never leave the workload it was injected into; a KybernateCheckpoint would never
// get its finalizer, its status or its pod looked up. (The checkpoint's dump is the node worker's, which
// holds no Kubernetes right: a checkpoint of a missing pod needs none, and exercises every call the
// controller makes for one.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, GROUP, PROVIDER_CONFIG_PLURAL, VERSION } from '../../api/constants.ts';
import { FLAME_API_VERSION, FLAME_CLUSTER_KIND, FLAME_CLUSTER_LABEL, FLAME_CLUSTER_PLURAL, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import { seedSpec } from '../../api/flame/testing.ts';
import type { FlameCluster, StoredFlameClusterStatus } from '../../api/flame/types.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { ASYA_FINALIZER, KEDA_GROUP, KEDA_VERSION, MANAGED_BY_LABEL, RUNTIME_CONFIG_MAP, SCALED_OBJECT_PLURAL } from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import { ARTIFACTS_FINALIZER, CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_API_VERSION, KYBERNATE_GROUP, KYBERNATE_VERSION, READY_CONDITION } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { builtinProviders } from '../../providers/index.ts';
import { kaitoProvider } from '../../providers/kaito/index.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { DEFAULT_SECRET_NAME, startWebhookServer, unregisterWebhooks, type ReviewRecord } from '../../webhook/index.ts';
import { createDeployment, deleteDeployment, eventsFor, example, getObject, phaseIs, UPSTREAM, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { actorExample, conditionOf, containerNames, createActor, deleteActor, DEPLOYMENTS, getActor, getDeployment, queueDepth, waitForActor } from '../support/asya.ts';
import { kubectlApply, manifest, untilEffective } from '../webhook/support.ts';
import { applyRbac, type Installed } from './install-rbac.ts';
import { kubectlOk } from './kubectl.ts';
import { rendered } from './manifests.ts';
import { forbiddenActivities, refusedLines } from './refusals.ts';
import { startControllerAs, type RunningAs } from './run-as.ts';
import { serviceAccountKubeConfig, SYSTEM_NAMESPACE } from './service-account.ts';

const ipcRef = (name: string) => ({ group: GROUP, version: VERSION, plural: PROVIDER_CONFIG_PLURAL, name });

/** Providers register by creating their InferenceProviderConfig: start from none, so that create is what runs. */
async function deleteProviderConfigs(): Promise<void> {
  const admin = new CustomObjects(kubeConfig());
  for (const p of builtinProviders) await admin.delete(ipcRef(p.name));
  await eventually('built-in InferenceProviderConfigs to be gone', async () => {
    for (const p of builtinProviders) if (await admin.get(ipcRef(p.name))) return false;
    return true;
  });
}

/** Through a whole lifecycle: Running through the simulated operator, then deleted and released. */
async function lifecycle(
  md: ModelDeployment,
  upstream: { group: string; version: string; plural: string },
  whileRunning: () => Promise<void> = async () => {},
): Promise<ModelDeployment> {
  const { namespace, name } = md.metadata as { namespace: string; name: string };
  await createDeployment(md);
  const running = await waitForDeployment(namespace, name, 'Running', phaseIs('Running'));
  expect(running.metadata.finalizers).toContain('kubeairunway.ai/finalizer');
  const resource = await getObject({ ...upstream, namespace, name: running.status!.provider!.resourceName! });
  expect(resource?.metadata?.ownerReferences?.[0]?.uid).toBe(running.metadata.uid);
  await whileRunning();
  await deleteDeployment(namespace, name);
  await waitGone(namespace, name);
  await eventually('provider resource to be deleted', async () => (await getObject({ ...upstream, namespace, name: resource!.metadata!.name! })) === undefined);
  return running;
}

const FLAME_CLUSTERS = { group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL };

/**
 * A FlameCluster through its life (seed 004), every write the controller's: created and Running with
 * two executors, scaled down to one (a pod deleted), its executor image changed (the pod deleted and
 * created again), then deleted (the garbage collector removes the children through their owner
 * references). `kc` is the admin's: the user's part.
 */
async function flameLifecycle(kc: KubeConfig, namespace: string, name: string): Promise<void> {
  const admin = new CustomObjects(kc);
  const ref = { ...FLAME_CLUSTERS, namespace, name };
  const children = (plural: string) => admin.list({ group: '', version: 'v1', plural, namespace, labelSelector: `${FLAME_CLUSTER_LABEL}=${name}` });
  const statusWhere = (what: string, ok: (s: StoredFlameClusterStatus) => boolean) =>
    eventually(`FlameCluster ${name} ${what}`, async () => {
      const status = ((await admin.get(ref)) as FlameCluster | undefined)?.status;
      return status && ok(status) ? status : undefined;
    }, 90_000);
  const images = async () => (await children('pods')).flatMap((p) => (p.spec as { containers: { image: string }[] }).containers.map((c) => c.image)).sort();

  const spec = seedSpec();
  spec.executorManager.replicas = 2;
  await admin.apply(ref, { apiVersion: FLAME_API_VERSION, kind: FLAME_CLUSTER_KIND, metadata: { name, namespace }, spec } as AnyObject, 'test-user');
  await statusWhere('Running with two executors', (s) => s.state === 'Running' && s.sessionManager?.ready === 1 && s.executorManager?.ready === 2);
  expect((await children('pods')).length).toBe(3);
  expect((await children('services')).length).toBe(2);
  expect((await children('configmaps')).map((c) => c.metadata?.ownerReferences?.[0]?.name)).toEqual([name]);

  await admin.mergePatch(ref, { spec: { executorManager: { replicas: 1 } } });
  await statusWhere('scaled down to one executor', (s) => s.observedGeneration === 2 && s.state === 'Running' && s.executorManager?.replicas === 1 && s.executorManager?.ready === 1);
  await eventually('the extra executor pod to be deleted', async () => (await children('pods')).length === 2);

  const image = 'xflops/flame-executor:v0.1.1';
  await admin.mergePatch(ref, { spec: { executorManager: { image } } });
  await eventually('the executor pod to be replaced', async () => (await images()).includes(image) && (await children('pods')).length === 2);
  await statusWhere('Running on the new image', (s) => s.observedGeneration === 3 && s.state === 'Running' && s.executorManager?.ready === 1);
  expect(await images()).toEqual([image, spec.sessionManager.image].sort());

  await admin.delete(ref);
  await eventually('the FlameCluster and its children to be gone', async () => {
    if (await admin.get(ref)) return false;
    for (const plural of ['pods', 'services', 'configmaps']) if ((await children(plural)).length > 0) return false;
    return true;
  }, 90_000);
}

const SCALED_OBJECTS = { group: KEDA_GROUP, version: KEDA_VERSION, plural: SCALED_OBJECT_PLURAL };
const ownerOf = (o: AnyObject | undefined) => o?.metadata?.ownerReferences?.map((r) => `${r.kind}/${r.name}`);
const reasonsOf = async (namespace: string, name: string) => (await eventsFor(namespace, name)).map((e) => e.reason);

/**
 * An AsyncActor's deletion, every write the controller's: its finalizer goes only once the release
 * worked (un-injection, ScaledObject, queues; a refused write there is retried until the cleanup
 * timeout and then reported as FinalizerTimeout, not as a failed activity), and its queues are gone.
 */
async function deleteActorAndWait(namespace: string, name: string): Promise<void> {
  await deleteActor(namespace, name);
  await eventually(`AsyncActor ${name} to be gone`, async () => (await getActor(namespace, name)) === undefined, 90_000);
  expect(await reasonsOf(namespace, name)).not.toContain('FinalizerTimeout');
  expect(await queueDepth(`asya-${name}`)).toBeUndefined();
}

/**
 * A standalone AsyncActor (seed 002) through its life: created, its Deployment, KEDA ScaledObject and
 * the namespace's asya-runtime ConfigMap applied and its queues declared, then deleted (the ScaledObject
 * by the controller, the Deployment by the garbage collector). `kc` is the admin's: the user's part.
 */
async function standaloneActorLifecycle(kc: KubeConfig, namespace: string, name: string): Promise<void> {
  const admin = new CustomObjects(kc);
  await createActor(actorExample('async-actor-standalone.yaml', namespace, name));
  const actor = await waitForActor(namespace, name, 'its workload and ScaledObject applied, its queues declared', (a) =>
    conditionOf(a, 'TransportReady')?.status === 'True' && conditionOf(a, 'ScalingReady')?.reason === 'ScaledObjectApplied' && a.status?.resolvedTarget === `Deployment/${namespace}/${name}`,
  90_000);
  expect(actor.metadata.finalizers).toContain(ASYA_FINALIZER);
  const workload = await getDeployment(namespace, name);
  expect(containerNames(workload)).toEqual(['asya-runtime', 'asya-sidecar']);
  expect(ownerOf(workload)).toEqual([`AsyncActor/${name}`]);
  const scaledObject = { ...SCALED_OBJECTS, namespace, name };
  expect(ownerOf(await admin.get(scaledObject))).toEqual([`AsyncActor/${name}`]);
  expect(await admin.get({ group: '', version: 'v1', plural: 'configmaps', namespace, name: RUNTIME_CONFIG_MAP })).toBeDefined();
  expect(await queueDepth(`asya-${name}`)).toBe(0);

  await deleteActorAndWait(namespace, name);
  await eventually(`the Released event of ${name}`, async () => (await eventsFor(namespace, name)).find((e) => e.reason === 'Released')?.message.includes(`deleted ScaledObject ${name}`));
  await eventually(`the Deployment and ScaledObject of ${name} to be gone`, async () => (await getDeployment(namespace, name)) === undefined && (await admin.get(scaledObject)) === undefined, 90_000);
}

/**
 * A binding AsyncActor through its life: bound to `workloadRef` (a Deployment someone else owns, or a
 * ModelDeployment followed to its provider resource's Deployment), the two containers injected into
 * `injectedInto` by server-side apply, then deleted, which takes them out again and leaves the workload
 * otherwise as it was.
 */
async function bindingActorLifecycle(namespace: string, name: string, workloadRef: NonNullable<AsyncActor['spec']['workloadRef']>, injectedInto: string): Promise<void> {
  const before = containerNames(await getDeployment(namespace, injectedInto));
  expect(before.length).toBeGreaterThan(0);
  const actor = actorExample('async-actor-binding.yaml', namespace, name);
  actor.spec.workloadRef = workloadRef;
  actor.spec.runtime = { ...actor.spec.runtime!, targetURL: `http://${injectedInto}.${namespace}.svc:80/v1` };
  await createActor(actor);
  const bound = await waitForActor(namespace, name, 'injected', (a) => conditionOf(a, 'RuntimeInjected')?.status === 'True' && conditionOf(a, 'ScalingReady')?.reason === 'ScaledObjectApplied', 90_000);
  expect(bound.status).toMatchObject({ mode: 'Binding', resolvedTarget: `Deployment/${namespace}/${injectedInto}`, runtimeInjected: true });
  const injected = await getDeployment(namespace, injectedInto);
  expect(containerNames(injected)).toEqual([...before, 'asya-runtime', 'asya-sidecar']);
  expect(injected?.metadata?.labels?.[MANAGED_BY_LABEL]).toBe(name);
  // The runtime script the injected container mounts.
  expect(await new CustomObjects(kubeConfig()).get({ group: '', version: 'v1', plural: 'configmaps', namespace, name: RUNTIME_CONFIG_MAP })).toBeDefined();
  expect(await reasonsOf(namespace, name)).toContain('RuntimeInjected');

  await deleteActorAndWait(namespace, name);
  const released = await getDeployment(namespace, injectedInto);
  expect(containerNames(released)).toEqual(before);
  expect(released?.metadata?.labels?.[MANAGED_BY_LABEL]).toBeUndefined();
  expect(await new CustomObjects(kubeConfig()).get({ ...SCALED_OBJECTS, namespace, name })).toBeUndefined();
  await eventually(`the Released event of ${name}`, async () => (await eventsFor(namespace, name)).find((e) => e.reason === 'Released')?.message.includes(`un-injected Deployment/${namespace}/${injectedInto}`));
}

const CHECKPOINTS = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL };

/**
 * A KybernateCheckpoint of a pod that does not exist (seed 003), every write the controller's: its
 * finalizer added (JSON patch), the pod read by name and not found, the status written Failed with
 * PodNotFound (server-side apply) and no node call, so no node worker is needed; then deleted, and the
 * finalizer removed (there is no image to delete on a node). `kc` is the admin's: the user's part.
 */
async function missingPodCheckpointLifecycle(kc: KubeConfig, namespace: string, name: string): Promise<void> {
  const admin = new CustomObjects(kc);
  const ref = { ...CHECKPOINTS, namespace, name };
  await admin.apply(ref, { apiVersion: KYBERNATE_API_VERSION, kind: CHECKPOINT_KIND, metadata: { name, namespace }, spec: { podName: `${name}-missing` } } as AnyObject, 'test-user');
  const failed = await eventually(`KybernateCheckpoint ${name} to fail with PodNotFound`, async () => {
    const cp = (await admin.get(ref)) as KybernateCheckpoint | undefined;
    return cp?.status?.phase === 'Failed' ? cp : undefined;
  }, 90_000);
  expect(failed.metadata.finalizers).toContain(ARTIFACTS_FINALIZER);
  expect(failed.status?.conditions?.find((c) => c.type === READY_CONDITION)).toMatchObject({ status: 'False', reason: 'PodNotFound' });
  expect(failed.status?.nodeName).toBeUndefined();
  await admin.delete(ref);
  await eventually(`KybernateCheckpoint ${name} to be gone`, async () => (await admin.get(ref)) === undefined, 90_000);
}

/** A Deployment another owner created (field manager the-owner), for an actor to bind to. */
async function foreignDeployment(kc: KubeConfig, namespace: string, name: string): Promise<void> {
  const deployment: AnyObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'server', image: 'nginx:1.27' }] } } },
  };
  await new CustomObjects(kc).apply({ ...DEPLOYMENTS, namespace, name }, deployment, 'the-owner');
}

describe('kubeairunway runs on the install ServiceAccounts', () => {
  let installed: Installed;
  let kube: TestKube;
  const simulators: Simulator[] = [];
  const running: RunningAs[] = [];
  const stopAll = async () => {
    await Promise.all(running.splice(0).map((r) => r.controller.stop()));
  };

  beforeAll(async () => {
    // The whole install (controller with the built-in providers) and one provider installed alone.
    installed = await applyRbac([...rendered(''), ...rendered('providers/kaito')]);
    kube = await testKube('deploy-sa');
    for (const script of UPSTREAM_SCRIPTS) simulators.push(await startSimulator(kube.kc, script, { readyAfterMs: 1_000 }));
    // The stand-in kubelet for the FlameClusters' pods, in this file's namespace only.
    simulators.push(await startPodReadinessSimulator(kube.kc, { readyAfterMs: 500, namespaces: [kube.namespace] }));
  });
  afterAll(async () => {
    await stopAll();
    await Promise.all(simulators.map((s) => s.stop()));
    await deleteProviderConfigs().catch(() => undefined);
    await kube?.cleanup();
    await installed?.remove();
  });

  it('all in one: the controller ServiceAccount runs the core, the watcher, the three built-in providers, FlameClusters, AsyncActors and KybernateCheckpoints', async () => {
    await deleteProviderConfigs();
    const kc = await serviceAccountKubeConfig('kubeairunway-controller');
    const run = await startControllerAs(kc, { core: true, watcher: true, providers: builtinProviders, taskQueuePrefix: uniqueName('deploy-sa') });
    running.push(run);

    // The Secret check of the core reads metadata only; one deployment names a Secret that exists.
    await kube.kc.makeApiClient(CoreV1Api).createNamespacedSecret({ namespace: kube.namespace, body: { metadata: { name: 'hf-present' }, stringData: { HF_TOKEN: 'x' } } });
    const kaito = example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = 'llama-kaito';
      m.spec.provider = { name: 'kaito' };
    });
    const dynamo = example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = 'llama-dynamo';
      m.spec.secrets = { huggingFaceToken: 'hf-present' };
    });
    const kuberay = example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = 'llama-kuberay';
      m.spec.provider = { name: 'kuberay' };
    });
    // KAITO's second object: the vLLM inference ConfigMap (contextLength), written next to the Workspace.
    const configMap = { group: '', version: 'v1', plural: 'configmaps', namespace: kube.namespace, name: 'llama-kaito-inference-config' };
    const kaitoConfigMap = async () => expect((await getObject(configMap))?.metadata?.ownerReferences?.[0]?.name).toBe('llama-kaito');

    // An AsyncActor bound to a Deployment someone else owns.
    await foreignDeployment(kube.kc, kube.namespace, 'owned-elsewhere');

    const [k, d, r] = await Promise.all([
      lifecycle(kaito, UPSTREAM.workspace, kaitoConfigMap),
      lifecycle(dynamo, UPSTREAM.dgd),
      lifecycle(kuberay, UPSTREAM.rayservice),
      flameLifecycle(kube.kc, kube.namespace, 'flame-all-in-one').then(() => undefined),
      standaloneActorLifecycle(kube.kc, kube.namespace, uniqueName('actor-alone')),
      bindingActorLifecycle(kube.namespace, uniqueName('actor-bound'), { apiVersion: 'apps/v1', kind: 'Deployment', name: 'owned-elsewhere' }, 'owned-elsewhere'),
      missingPodCheckpointLifecycle(kube.kc, kube.namespace, uniqueName('checkpoint-all-in-one')),
    ]);
    expect([k.status?.provider?.name, d.status?.provider?.name, r.status?.provider?.name]).toEqual(['kaito', 'dynamo', 'kuberay']);
    expect(d.status?.provider?.selectedReason).toBeTruthy();
    await eventually('KAITO inference ConfigMap to be deleted', async () => (await getObject(configMap)) === undefined);

    const reasons = async (name: string) => (await eventsFor(kube.namespace, name)).map((e) => e.reason);
    expect(await reasons('llama-kaito')).toEqual(expect.arrayContaining(['ResourceCreated', 'SecretNotFound']));
    expect(await reasons('llama-dynamo')).toEqual(expect.arrayContaining(['ProviderSelected', 'ResourceCreated']));
    expect(await reasons('llama-dynamo')).not.toContain('SecretNotFound');

    // Each provider registered itself (created its InferenceProviderConfig) and heartbeats.
    const admin = new CustomObjects(kube.kc);
    for (const p of builtinProviders) expect((await admin.get(ipcRef(p.name)))?.status).toMatchObject({ ready: true });
    expect(refusedLines(run.log)).toEqual([]);
    await stopAll();
    expect(await forbiddenActivities(kube.namespace)).toEqual([]);
  });

  it("the seed's topology: the core role, the Flame, Asya and Kybernate roles in one namespace (--namespaces), and KAITO as its own Deployment", async () => {
    await deleteProviderConfigs();
    // The core's ClusterRole as shipped, bound to a ServiceAccount that holds nothing else, and the Flame,
    // Asya and Kybernate roles in the served namespace only, as deploy/README.md's overlay binds them.
    const coreOnly = uniqueName('core-only');
    await kubectlOk(['create', 'serviceaccount', coreOnly, `--namespace=${SYSTEM_NAMESPACE}`]);
    await kubectlOk(['create', 'clusterrolebinding', coreOnly, '--clusterrole=kubeairunway-controller', `--serviceaccount=${SYSTEM_NAMESPACE}:${coreOnly}`]);
    await kubectlOk(['create', 'rolebinding', coreOnly, '--clusterrole=kubeairunway-flame', `--serviceaccount=${SYSTEM_NAMESPACE}:${coreOnly}`, `--namespace=${kube.namespace}`]);
    await kubectlOk(['create', 'rolebinding', `${coreOnly}-asya`, '--clusterrole=kubeairunway-asya', `--serviceaccount=${SYSTEM_NAMESPACE}:${coreOnly}`, `--namespace=${kube.namespace}`]);
    await kubectlOk(['create', 'rolebinding', `${coreOnly}-kybernate`, '--clusterrole=kubeairunway-kybernate', `--serviceaccount=${SYSTEM_NAMESPACE}:${coreOnly}`, `--namespace=${kube.namespace}`]);
    try {
      const taskQueuePrefix = uniqueName('deploy-sa');
      const core = await startControllerAs(await serviceAccountKubeConfig(coreOnly), { core: true, watcher: true, providers: [], taskQueuePrefix, namespaces: [kube.namespace] });
      running.push(core);
      const kaito = await startControllerAs(await serviceAccountKubeConfig('kaito-provider'), { core: false, watcher: false, providers: [kaitoProvider], taskQueuePrefix });
      running.push(kaito);

      const md = example('cpu-llamacpp-minimal.yaml', kube.namespace, (m) => {
        m.metadata.name = 'qwen-alone';
      });
      // While it runs, an AsyncActor bound to it: the ModelDeployment (core role), its KAITO Workspace and
      // the Deployment the Workspace controls (Asya role), the Workspace CRD's version from the
      // process's CRD cache (the core role's list and watch; the Asya role has no get on CRDs).
      const boundToModel = () =>
        bindingActorLifecycle(kube.namespace, uniqueName('actor-on-model'), { apiVersion: API_VERSION, kind: 'ModelDeployment', name: 'qwen-alone' }, 'qwen-alone');
      const [done] = await Promise.all([
        lifecycle(md, UPSTREAM.workspace, boundToModel),
        flameLifecycle(kube.kc, kube.namespace, 'flame-one-namespace'),
        standaloneActorLifecycle(kube.kc, kube.namespace, uniqueName('actor-one-namespace')),
        missingPodCheckpointLifecycle(kube.kc, kube.namespace, uniqueName('checkpoint-one-namespace')),
      ]);
      expect(done.status?.provider?.name).toBe('kaito');
      expect([...refusedLines(core.log), ...refusedLines(kaito.log)]).toEqual([]);
    } finally {
      // Stopped before the bindings go, so nothing runs on a ServiceAccount that has lost its role.
      await stopAll();
      await kubectlOk(['delete', 'clusterrolebinding', coreOnly, '--ignore-not-found']);
      await kubectlOk(['delete', 'rolebinding', coreOnly, `--namespace=${kube.namespace}`, '--ignore-not-found']);
      await kubectlOk(['delete', 'rolebinding', `${coreOnly}-asya`, `--namespace=${kube.namespace}`, '--ignore-not-found']);
      await kubectlOk(['delete', 'rolebinding', `${coreOnly}-kybernate`, `--namespace=${kube.namespace}`, '--ignore-not-found']);
    }
    expect(await forbiddenActivities(kube.namespace)).toEqual([]);
  });

  it('without the Flame, Asya and Kybernate roles (an install without them), the refused FlameCluster, AsyncActor and Kybernate watches are reported and nothing else', async () => {
    const noFlame = uniqueName('no-flame');
    await kubectlOk(['create', 'serviceaccount', noFlame, `--namespace=${SYSTEM_NAMESPACE}`]);
    await kubectlOk(['create', 'clusterrolebinding', noFlame, '--clusterrole=kubeairunway-controller', `--serviceaccount=${SYSTEM_NAMESPACE}:${noFlame}`]);
    try {
      const watcher = await startControllerAs(await serviceAccountKubeConfig(noFlame), { core: false, watcher: true, providers: [], taskQueuePrefix: uniqueName('deploy-sa') });
      running.push(watcher);
      // One line per refused collection (the FlameClusters and their three kinds of children, the
      // AsyncActors and their two, the KybernateCheckpoints, the KybernateRestores and their pods, the
      // KybernateWorkloads and their pods and checkpoints), then quiet retries.
      const refused = await eventually('the FlameCluster, AsyncActor and Kybernate watches to be refused', async () => {
        const lines = refusedLines(watcher.log);
        return lines.length >= 13 ? lines : undefined;
      }, 30_000);
      expect(refused.filter((line) => !['FlameCluster ', 'AsyncActor ', 'KybernateCheckpoint ', 'KybernateRestore ', 'KybernateWorkload '].some((kind) => line.startsWith(kind)))).toEqual([]);
      expect(refused.map((line) => line.split(' lost ')[0]).sort()).toEqual([
        'AsyncActor deployments watch',
        'AsyncActor statefulsets watch',
        'AsyncActor watch',
        'FlameCluster configmaps watch',
        'FlameCluster pods watch',
        'FlameCluster services watch',
        'FlameCluster watch',
        'KybernateCheckpoint watch',
        'KybernateRestore pods watch',
        'KybernateRestore watch',
        'KybernateWorkload kybernatecheckpoints watch',
        'KybernateWorkload pods watch',
        'KybernateWorkload watch',
      ]);
    } finally {
      await stopAll();
      await kubectlOk(['delete', 'clusterrolebinding', noFlame, '--ignore-not-found']);
    }
  });

  it('the webhook ServiceAccount stores its certificate, registers both configurations, reads provider configs and rotates', async () => {
    const kc = await serviceAccountKubeConfig('kubeairunway-webhook');
    const reviews: ReviewRecord[] = [];
    const warnings: string[] = [];
    const server = await startWebhookServer({
      kc,
      namespace: SYSTEM_NAMESPACE,
      // The default configuration names (the only ones its role allows), confined to the test namespace.
      register: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': kube.namespace } } },
      providerConfigTtlMs: 200,
      onReview: (r) => reviews.push(r),
      log: { info: () => undefined, warn: (_f, msg) => warnings.push(msg), error: (_f, msg) => warnings.push(msg) },
    });
    try {
      // Denying "Provider '...' CRD not installed" needs the InferenceProviderConfig list.
      await untilEffective(kube.kc, kube.namespace);
      const name = uniqueName('defaults');
      const res = await kubectlApply(manifest(kube.namespace, name, { model: { id: 'org/Tiny-Model-1B' }, engine: { type: 'llamacpp' } }));
      expect(res.code).toBe(0);
      expect(reviews.some((r) => r.name === name && r.path === '/mutate-modeldeployment' && r.allowed)).toBe(true);

      const secret = await kube.kc.makeApiClient(CoreV1Api).readNamespacedSecret({ name: DEFAULT_SECRET_NAME, namespace: SYSTEM_NAMESPACE });
      expect(secret.type).toBe('kubernetes.io/tls');
      // Rotation: a Secret update, both configurations re-applied and read back, then the new certificate served.
      await server.rotateNow();
      await untilEffective(kube.kc, kube.namespace);
      expect(warnings).toEqual([]);
    } finally {
      await server.stop();
      await unregisterWebhooks(kube.kc);
    }
  });
});
