// Bottom layer: the namespace controller deletes a namespace's content and waits for finalizers.
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, kubeConfig, uniqueName } from '../support/env.ts';
import { CoreV1Api } from '@kubernetes/client-node';

describe('namespace deletion with a finalizer', () => {
  const core = kubeConfig().makeApiClient(CoreV1Api);
  const namespace = uniqueName('smoke-ns');
  afterAll(async () => {
    await core.patchNamespacedConfigMap({ name: 'held', namespace, body: [{ op: 'remove', path: '/metadata/finalizers' }] }).catch(() => undefined);
  });

  it('stays Terminating until the finalizer is removed, then disappears', async () => {
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'held', finalizers: ['kubeairunway.ai/smoke'] } } });
    await core.deleteNamespace({ name: namespace });

    // The namespace controller has marked the object for deletion: it has done its part and now waits.
    await eventually('the held object to be marked for deletion', async () => {
      const cm = await core.readNamespacedConfigMap({ name: 'held', namespace });
      return Boolean(cm.metadata?.deletionTimestamp);
    }, 120_000, 500);
    const ns = await core.readNamespace({ name: namespace });
    expect(ns.status?.phase).toBe('Terminating');

    await core.patchNamespacedConfigMap({ name: 'held', namespace, body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    await eventually('the namespace to be gone', async () => {
      try {
        await core.readNamespace({ name: namespace });
        return false;
      } catch (err) {
        return (err as { code?: number }).code === 404;
      }
    }, 120_000, 500);
  });
});
