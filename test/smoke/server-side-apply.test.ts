// Bottom layer: server-side apply with an explicit field manager, as every controller write uses it.
import { PatchStrategy, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKube, type TestKube } from '../support/env.ts';

describe('server-side apply', () => {
  let kube: TestKube;
  beforeAll(async () => {
    kube = await testKube('smoke-ssa');
  });
  afterAll(async () => kube.cleanup());

  it('records the field manager and its fields in managedFields', async () => {
    const cm: V1ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: kube.namespace }, data: { a: '1' } };
    await kube.objects.patch(cm, undefined, undefined, 'smoke-manager', true, PatchStrategy.ServerSideApply);
    const other: V1ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: kube.namespace }, data: { b: '2' } };
    await kube.objects.patch(other, undefined, undefined, 'other-manager', true, PatchStrategy.ServerSideApply);

    const live = await kube.core.readNamespacedConfigMap({ name: 'applied', namespace: kube.namespace });
    expect(live.data).toEqual({ a: '1', b: '2' });
    const entries = live.metadata?.managedFields ?? [];
    const mine = entries.find((e) => e.manager === 'smoke-manager');
    expect(mine?.operation).toBe('Apply');
    expect(JSON.stringify(mine?.fieldsV1)).toContain('f:a');
    expect(JSON.stringify(mine?.fieldsV1)).not.toContain('f:b');
    expect(entries.find((e) => e.manager === 'other-manager')?.operation).toBe('Apply');
  });
});
