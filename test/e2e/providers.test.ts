// Selection over InferenceProviderConfigs, including a third-party provider whose worker is defined in
// this test, and a provider whose CRD is installed only after its deployment was created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinProviders } from '../../providers/index.ts';
import { installCrds } from '../../devstack/crds.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { thirdPartyProvider } from '../support/third-party-provider.ts';
import { condition, createDeployment, deleteDeployment, example, getObject, phaseIs, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';

const acme = thirdPartyProvider('acme', [{ condition: "spec.model.id.startsWith('acme/')", priority: 1000 }]);
const acmeProvider = acme.provider;
const acmeRef = (namespace: string, name: string) => ({ ...acme.resource, namespace, name });
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };

describe('third-party provider', () => {
  let kube: TestKube;
  let ctl: TestController;
  let acmeCtl: TestController;
  const objects = new CustomObjects(kubeConfig());
  beforeAll(async () => {
    kube = await testKube('e2e-prov');
    await objects.delete({ ...CRDS, name: acme.crdName });
    await eventually('no acme CRD', async () => (await objects.get({ ...CRDS, name: acme.crdName })) === undefined);
    ctl = await startTestController({ namespaces: [kube.namespace], providers: builtinProviders });
    // The third-party provider runs in its own controller, as it would in its own Deployment.
    acmeCtl = await startTestController({ namespaces: [], core: false, watcher: false, simulators: false, providers: [acmeProvider], taskQueuePrefix: ctl.taskQueuePrefix });
  });
  afterAll(async () => {
    await acmeCtl?.stop();
    await ctl?.stop();
    await kube?.cleanup();
    await objects.delete({ ...CRDS, name: acme.crdName });
  });

  const deployment = (name: string, modelId: string): ModelDeployment =>
    example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      m.spec.model = { id: modelId };
    });

  it('waits with the seed message while the CRD is missing, proceeds by itself once it is installed, and reaches Running', async () => {
    const name = uniqueName('acme');
    await createDeployment(deployment(name, 'acme/fast-model'));
    // The provider's status and the core's (the selection) are two writes by two field managers: wait for both.
    const waiting = await waitForDeployment(kube.namespace, name, 'CRD not installed', (m) => m.status?.message === "Provider 'acme' CRD not installed in cluster" && m.status.provider?.name === 'acme');
    expect(waiting.status?.phase).toBe('Pending');
    expect(waiting.status?.provider).toMatchObject({ name: 'acme', selectedReason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated' });

    await installCrds(kubeConfig(), [acme.crd]);
    const created = await eventually('the AcmeInference', async () => getObject(acmeRef(kube.namespace, name)));
    expect(created.spec).toEqual({ model: 'acme/fast-model', replicas: 1 });
    await waitForDeployment(kube.namespace, name, 'Deploying', phaseIs('Deploying'));

    // Play the Acme operator: its status change reaches the workflow through the provider's own watch.
    await objects.mergePatchStatus(acmeRef(kube.namespace, name), { status: { ready: true } });
    const running = await waitForDeployment(kube.namespace, name, 'Running', phaseIs('Running'));
    expect(running.status?.endpoint).toEqual({ service: name, port: 9000 });
    expect(condition(running, 'Ready')?.status).toBe('True');

    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name);
    await eventually('AcmeInference deleted', async () => (await getObject(acmeRef(kube.namespace, name))) === undefined);
  });

  it('leaves other models to the built-in rules', async () => {
    const name = uniqueName('builtin');
    await createDeployment(deployment(name, 'Qwen/Qwen3-8B'));
    const md = await waitForDeployment(kube.namespace, name, 'provider selected', (m) => Boolean(m.status?.provider?.name));
    expect(md.status?.provider?.name).toBe('dynamo');
  });
});
