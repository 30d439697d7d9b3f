// A Dynamo deployment with the real DynamoGraphDeployment CRD (../shared/upstream-crds) in each of its
// API versions: the controller renders the version the cluster serves, preferring v1beta1 (seed 001
// §4.10), and creation, status mapping, drift repair, identity changes, owner references and deletion
// work in both shapes.
//
// The real CRD converts between v1alpha1 and v1beta1 through the Dynamo operator's conversion webhook,
// which does not run here (no Dynamo operator is served by any registry). So it is installed with
// conversion None: an object is then validated and pruned against the version it is sent in and stored
// as the storage version, unconverted. Each variant therefore stores the version the controller renders:
//   - v1beta1: serving v1alpha1 and v1beta1, storing v1beta1 (upstream's storage version);
//   - v1alpha1: serving and storing only v1alpha1 (a cluster whose Dynamo predates v1beta1).
// The simulated Dynamo operator (which writes only status fields the upstream schema declares) is
// started after each install, so it works in the version served.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCrds } from '../../devstack/crds.ts';
import { testStackCrds } from '../../devstack/crd-files.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { dynamoGraphDeployment } from '../../devstack/simulators/scripts.ts';
import { hasUpstreamCrds, loadUpstreamCrd, withoutConversionWebhook } from '../../devstack/upstream-crds.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { condition, createDeployment, deleteDeployment, eventsFor, example, getObject, patchDeployment, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';

const root = resolve(import.meta.dirname, '..', '..');
const DGD = { group: 'nvidia.com', plural: 'dynamographdeployments' } as const;

interface Variant {
  version: 'v1beta1' | 'v1alpha1';
  served: string[];
}

const variants: Variant[] = [
  { version: 'v1beta1', served: ['v1alpha1', 'v1beta1'] },
  { version: 'v1alpha1', served: ['v1alpha1'] },
];

/** Worker replicas and the frontend's router mode, read from either shape. */
function shape(dgd: AnyObject, version: Variant['version']): { workers: Record<string, number>; routerMode?: string } {
  const spec = dgd.spec as Record<string, unknown>;
  if (version === 'v1beta1') {
    const components = spec.components as { name: string; type: string; replicas: number; podTemplate: { spec: { containers: { name: string; env?: { name: string; value: string }[] }[] } } }[];
    const frontend = components.find((c) => c.type === 'frontend')!;
    const main = frontend.podTemplate.spec.containers.find((c) => c.name === 'main')!;
    return {
      workers: Object.fromEntries(components.filter((c) => c.type !== 'frontend').map((c) => [c.name, c.replicas])),
      routerMode: main.env?.find((e) => e.name === 'DYN_ROUTER_MODE')?.value,
    };
  }
  const services = spec.services as Record<string, { componentType: string; replicas: number; extraPodSpec: { mainContainer: { env?: { name: string; value: string }[] } } }>;
  return {
    workers: Object.fromEntries(Object.entries(services).filter(([, s]) => s.componentType === 'worker').map(([name, s]) => [name, s.replicas])),
    routerMode: services.Frontend?.extraPodSpec.mainContainer.env?.find((e) => e.name === 'DYN_ROUTER_MODE')?.value,
  };
}

/** A JSON merge patch that sets one worker's replicas in either shape (a v1beta1 list is replaced whole). */
function workerReplicasPatch(dgd: AnyObject, version: Variant['version'], worker: string, replicas: number): object {
  const spec = dgd.spec as Record<string, unknown>;
  if (version === 'v1beta1') {
    const components = spec.components as { name: string }[];
    return { spec: { components: components.map((c) => (c.name === worker ? { ...c, replicas } : c)) } };
  }
  return { spec: { services: { [worker]: { replicas } } } };
}

describe.skipIf(!hasUpstreamCrds(root, ['dynamoGraphDeployments']))('Dynamo with the real DynamoGraphDeployment CRD, in each API version (conversion None)', () => {
  let kube: TestKube;
  const upstream = () => loadUpstreamCrd(root, 'dynamoGraphDeployments');

  beforeAll(async () => {
    kube = await testKube('e2e-dynamo-versions');
  });

  afterAll(async () => {
    await kube?.cleanup();
    // Back to what the rest of the suite expects: the stack's own install of the real CRD.
    await installCrds(kubeConfig(), testStackCrds(root).crds);
  });

  for (const variant of variants) {
    describe(`nvidia.com/${variant.version} (served: ${variant.served.join(', ')}; stored: ${variant.version})`, () => {
      let ctl: TestController | undefined;
      let simulator: Simulator | undefined;
      const ref = (name: string) => ({ ...DGD, version: variant.version, namespace: kube.namespace, name });

      beforeAll(async () => {
        const crd = withoutConversionWebhook(upstream(), { storage: variant.version, served: variant.served });
        await installCrds(kubeConfig(), [crd]);
        // The API server serves a changed version set a moment after the CRD says Established.
        await eventually(`${variant.version} to be served`, async () => {
          await new CustomObjects(kubeConfig()).list({ ...DGD, version: variant.version, namespace: kube.namespace });
          return true;
        });
        simulator = await startSimulator(kubeConfig(), dynamoGraphDeployment, { readyAfterMs: 1_000 });
        ctl = await startTestController({ namespaces: [kube.namespace], simulators: false });
      });

      afterAll(async () => {
        await simulator?.stop();
        await ctl?.stop();
      });

      it('renders the served version, reaches Running with the simulated operator, repairs drift, recreates on an identity change, deletes', async () => {
        const name = uniqueName(`pd-${variant.version}`);
        const md: ModelDeployment = example('disaggregated-dynamo.yaml', kube.namespace, (m) => {
          m.metadata.name = name;
        });
        await createDeployment(md);

        // Running, with the worker replicas (2 prefill + 4 decode) the operator reports in this version's status map.
        const running = await waitForDeployment(kube.namespace, name, 'Running', (m) => m.status?.phase === 'Running');
        expect(running.status?.replicas).toEqual({ desired: 6, ready: 6, available: 6 });
        expect(running.status?.provider).toMatchObject({ name: 'dynamo', resourceKind: 'DynamoGraphDeployment', resourceName: name });
        expect(condition(running, 'ResourceCreated')?.status).toBe('True');

        const dgd = (await getObject(ref(name)))!;
        expect(dgd.apiVersion).toBe(`nvidia.com/${variant.version}`);
        expect(shape(dgd, variant.version)).toEqual({ workers: { VllmDecodeWorker: 4, VllmPrefillWorker: 2 }, routerMode: 'kv' });
        expect(dgd.metadata?.ownerReferences).toEqual([
          { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name, uid: running.metadata.uid, controller: true, blockOwnerDeletion: true },
        ]);
        expect((dgd.status as { state?: string }).state).toBe('successful');
        expect(Object.keys((dgd.status as Record<string, object>)[variant.version === 'v1beta1' ? 'components' : 'services'] ?? {}).sort()).toEqual([
          'Frontend',
          'VllmDecodeWorker',
          'VllmPrefillWorker',
        ]);

        // Drift: an edit made directly to the provider resource is put back, with a DriftDetected event.
        await new CustomObjects(kubeConfig()).mergePatch(ref(name), workerReplicasPatch(dgd, variant.version, 'VllmDecodeWorker', 9));
        await eventually('the edit to be reverted', async () => shape((await getObject(ref(name)))!, variant.version).workers.VllmDecodeWorker === 4);
        await eventually('DriftDetected event', async () => (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'DriftDetected'));

        // Identity change: the resource is deleted and created again, in the same version.
        await patchDeployment(kube.namespace, name, { spec: { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' } } });
        const recreated = await eventually('a new provider resource', async () => {
          const obj = await getObject(ref(name));
          return obj && obj.metadata?.uid !== dgd.metadata?.uid ? obj : undefined;
        });
        expect(recreated.apiVersion).toBe(`nvidia.com/${variant.version}`);
        expect(JSON.stringify(recreated.spec)).toContain('meta-llama/Llama-3.1-8B-Instruct');
        await waitForDeployment(kube.namespace, name, 'Running again at generation 2', (m) => m.status?.phase === 'Running' && m.status?.observedGeneration === 2);

        // Deletion: the provider resource goes with the deployment.
        await deleteDeployment(kube.namespace, name);
        await waitGone(kube.namespace, name);
        await eventually('the provider resource to be gone', async () => (await getObject(ref(name))) === undefined);
      });
    });
  }
});
