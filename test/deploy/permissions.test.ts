// The install's ServiceAccounts are enough: kubeairunway runs whole lifecycles on their real tokens
// (TokenRequest), so every Kubernetes call the code makes is authorized exactly as in a pod. With a
// missing verb a deployment would never reach Running, or never be released on deletion.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { GROUP, PROVIDER_CONFIG_PLURAL, VERSION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { builtinProviders } from '../../providers/index.ts';
import { kaitoProvider } from '../../providers/kaito/index.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { DEFAULT_SECRET_NAME, startWebhookServer, unregisterWebhooks, type ReviewRecord } from '../../webhook/index.ts';
import { createDeployment, deleteDeployment, eventsFor, example, getObject, phaseIs, UPSTREAM, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
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
  });
  afterAll(async () => {
    await stopAll();
    await Promise.all(simulators.map((s) => s.stop()));
    await deleteProviderConfigs().catch(() => undefined);
    await kube?.cleanup();
    await installed?.remove();
  });

  it('all in one: the controller ServiceAccount runs the core, the watcher and the three built-in providers', async () => {
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

    const [k, d, r] = await Promise.all([lifecycle(kaito, UPSTREAM.workspace, kaitoConfigMap), lifecycle(dynamo, UPSTREAM.dgd), lifecycle(kuberay, UPSTREAM.rayservice)]);
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

  it("the seed's topology: the core role alone, and KAITO as its own Deployment on the kaito-provider ServiceAccount", async () => {
    await deleteProviderConfigs();
    // The core's ClusterRole as shipped, bound to a ServiceAccount that holds nothing else.
    const coreOnly = uniqueName('core-only');
    await kubectlOk(['create', 'serviceaccount', coreOnly, `--namespace=${SYSTEM_NAMESPACE}`]);
    await kubectlOk(['create', 'clusterrolebinding', coreOnly, '--clusterrole=kubeairunway-controller', `--serviceaccount=${SYSTEM_NAMESPACE}:${coreOnly}`]);
    try {
      const taskQueuePrefix = uniqueName('deploy-sa');
      const core = await startControllerAs(await serviceAccountKubeConfig(coreOnly), { core: true, watcher: true, providers: [], taskQueuePrefix });
      running.push(core);
      const kaito = await startControllerAs(await serviceAccountKubeConfig('kaito-provider'), { core: false, watcher: false, providers: [kaitoProvider], taskQueuePrefix });
      running.push(kaito);

      const md = example('cpu-llamacpp-minimal.yaml', kube.namespace, (m) => {
        m.metadata.name = 'qwen-alone';
      });
      const done = await lifecycle(md, UPSTREAM.workspace);
      expect(done.status?.provider?.name).toBe('kaito');
      expect([...refusedLines(core.log), ...refusedLines(kaito.log)]).toEqual([]);
    } finally {
      // Stopped before the binding goes, so nothing runs on a ServiceAccount that has lost its role.
      await stopAll();
      await kubectlOk(['delete', 'clusterrolebinding', coreOnly, '--ignore-not-found']);
    }
    expect(await forbiddenActivities(kube.namespace)).toEqual([]);
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
