// Bottom layer: kube-controller-manager's garbage collector deletes dependents of a deleted owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, testKube, type TestKube } from '../support/env.ts';

describe('owner-reference garbage collection', () => {
  let kube: TestKube;
  beforeAll(async () => {
    kube = await testKube('smoke-gc');
  });
  afterAll(async () => kube.cleanup());

  it('deletes an object whose owner is deleted', async () => {
    const { namespace } = kube;
    const owner = await kube.core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'owner' } } });
    await kube.core.createNamespacedConfigMap({
      namespace,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid!, controller: true, blockOwnerDeletion: true }],
        },
      },
    });
    await kube.core.deleteNamespacedConfigMap({ name: 'owner', namespace });
    await eventually(
      'dependent to be garbage-collected',
      async () => {
        const list = await kube.core.listNamespacedConfigMap({ namespace });
        return !list.items.some((cm) => cm.metadata?.name === 'dependent');
      },
      120_000,
      500,
    );
    const remaining = (await kube.core.listNamespacedConfigMap({ namespace })).items.map((cm) => cm.metadata?.name);
    expect(remaining).not.toContain('dependent');
    expect(remaining).not.toContain('owner');
  });
});
