// FlameCluster (seed 004) end to end on the real stack, with the pod-readiness simulator as kubelet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE_KEY } from '../../api/flame/constants.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { testKube, type TestKube } from '../support/env.ts';
import { childrenOf, createFlameCluster, flameExample, namesOf, waitForFlameCluster } from '../support/flame.ts';

describe.concurrent('FlameCluster', () => {
  let kube: TestKube;
  let ctl: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-flame');
    ctl = await startTestController({ namespaces: [kube.namespace] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  it('UC1: one apply creates the ConfigMap, both Services and the pods, and reaches Running', async () => {
    const name = 'uc1';
    const created = await createFlameCluster(flameExample(kube.namespace, name, 3));
    const running = await waitForFlameCluster(kube.namespace, name, 'Running', (fc) => fc.status?.state === 'Running' && fc.status.executorManager?.ready === 3);
    expect(running.status).toMatchObject({
      sessionManager: { ready: 1, endpoint: `http://${name}-session-manager:8080` },
      executorManager: { replicas: 3, ready: 3 },
      configGeneration: 1,
      observedGeneration: running.metadata.generation,
    });
    const pods = await childrenOf(kube.namespace, name, 'pods');
    expect(namesOf(pods)).toEqual([`${name}-executor-manager-0`, `${name}-executor-manager-1`, `${name}-executor-manager-2`, `${name}-session-manager`]);
    expect(namesOf(await childrenOf(kube.namespace, name, 'services'))).toEqual([`${name}-object-cache`, `${name}-session-manager`]);
    const [config] = await childrenOf(kube.namespace, name, 'configmaps');
    expect(config?.metadata?.name).toBe(`${name}-config`);
    expect((config?.data as Record<string, string>)[CONFIG_FILE_KEY]).toContain(`endpoint: "http://${name}-session-manager:8080"`);
    for (const child of [...pods, config!]) {
      expect(child.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'FlameCluster', name, uid: created.metadata.uid, controller: true, blockOwnerDeletion: true })]);
    }
  });
});
