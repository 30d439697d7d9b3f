// Full lifecycle per provider on the real stack: apply → Running (through the simulated operator) →
// delete → provider resource gone and the ModelDeployment released.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { condition, createDeployment, deleteDeployment, eventsFor, example, getObject, phaseIs, UPSTREAM, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, testKube, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';

describe.concurrent('lifecycle per provider', () => {
  let kube: TestKube;
  let ctl: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-life');
    ctl = await startTestController({ namespaces: [kube.namespace] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  const cases = [
    { file: 'cpu-llamacpp-minimal.yaml', provider: 'kaito', upstream: UPSTREAM.workspace, kind: 'Workspace' },
    { file: 'cpu-gguf-kaito.yaml', provider: 'kaito', upstream: UPSTREAM.workspace, kind: 'Workspace' },
    { file: 'gpu-vllm-dynamo.yaml', provider: 'dynamo', upstream: UPSTREAM.dgd, kind: 'DynamoGraphDeployment' },
    { file: 'disaggregated-dynamo.yaml', provider: 'dynamo', upstream: UPSTREAM.dgd, kind: 'DynamoGraphDeployment' },
    // KubeRay is never auto-selected (seed §4.4): named explicitly.
    { file: 'gpu-vllm-dynamo.yaml', provider: 'kuberay', upstream: UPSTREAM.rayservice, kind: 'RayService', explicit: true },
  ];

  for (const c of cases) {
    it(`${c.file} reaches Running on ${c.provider} and cleans up on deletion`, async () => {
      const md = example(c.file, kube.namespace, (m) => {
        m.metadata.name = `${m.metadata.name}-${c.file.split('-')[0]}-${c.provider}`.slice(0, 50);
        if (c.explicit) m.spec.provider = { name: c.provider };
      });
      const name = md.metadata.name!;
      await createDeployment(md);
      const running = await waitForDeployment(kube.namespace, name, 'Running', phaseIs('Running'));
      expect(running.status?.provider?.name).toBe(c.provider);
      expect(running.status?.provider?.resourceKind).toBe(c.kind);
      expect(running.metadata.finalizers).toContain('kubeairunway.ai/finalizer');
      expect(condition(running, 'Validated')?.status).toBe('True');
      expect(condition(running, 'ProviderSelected')?.status).toBe('True');
      expect(condition(running, 'ResourceCreated')?.status).toBe('True');
      expect(condition(running, 'Ready')?.status).toBe('True');
      expect(running.status?.observedGeneration).toBe(running.metadata.generation);

      const upstream = await getObject({ ...c.upstream, namespace: kube.namespace, name: running.status!.provider!.resourceName! });
      expect(upstream?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ModelDeployment', name, uid: running.metadata.uid, controller: true, blockOwnerDeletion: true });
      expect(upstream?.metadata?.labels?.['kubeairunway.ai/managed-by']).toBe('kubeairunway');

      const reasons = (await eventsFor(kube.namespace, name)).map((e) => e.reason);
      expect(reasons).toEqual(expect.arrayContaining(['ProviderSelected', 'ResourceCreated']));

      await deleteDeployment(kube.namespace, name);
      await waitGone(kube.namespace, name);
      await eventually('provider resource to be gone', async () => (await getObject({ ...c.upstream, namespace: kube.namespace, name: upstream!.metadata!.name! })) === undefined);
    });
  }
});
