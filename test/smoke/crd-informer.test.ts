// Bottom layer: custom resources and informers work against the real API server.
import { type KubernetesObject, CustomObjectsApi } from '@kubernetes/client-node';
import { resilientInformer } from '../../kube/informer.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCrds } from '../../devstack/crds.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';

const group = 'smoke.kubeairunway.test';

/** A namespaced CRD of this group, served at v1, whose objects have an integer `spec.size`. */
function crd(plural: string, kind: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
        },
      ],
    },
  };
}

describe('CRD and informer', () => {
  let kube: TestKube;
  beforeAll(async () => {
    kube = await testKube('smoke-crd');
  });
  afterAll(async () => kube.cleanup());

  it('installs a CRD, creates a custom resource and sees it through an informer', async () => {
    const plural = uniqueName('widgets').replace(/-/g, '');
    const kind = `W${plural}`;
    await installCrds(kube.kc, [crd(plural, kind)]);
    const custom = kube.kc.makeApiClient(CustomObjectsApi);
    const path = `/apis/${group}/v1/namespaces/${kube.namespace}/${plural}`;
    // A just-established CRD answers 429 while its storage initializes: the informer must restart by itself.
    const errors: unknown[] = [];
    const { informer, start, stop } = resilientInformer<KubernetesObject>(
      kube.kc,
      path,
      () => custom.listNamespacedCustomObject({ group, version: 'v1', namespace: kube.namespace, plural }),
      { initialBackoffMs: 200, onError: (err) => errors.push(err) },
    );
    const seen: string[] = [];
    informer.on('add', (obj) => seen.push(obj.metadata!.name!));
    await start();
    try {
      await custom.createNamespacedCustomObject({
        group,
        version: 'v1',
        namespace: kube.namespace,
        plural,
        body: { apiVersion: `${group}/v1`, kind, metadata: { name: 'first' }, spec: { size: 3 } },
      });
      await eventually('informer add event', async () => seen.includes('first'));
      const cached = informer.get('first', kube.namespace) as (KubernetesObject & { spec?: { size?: number } }) | undefined;
      expect(cached?.spec?.size).toBe(3);
      // The API server keeps managed fields on every object; the caches keep none, whether the object
      // arrived by watch (above) or by a first list (a second informer, started after the create).
      const live = (await custom.getNamespacedCustomObject({ group, version: 'v1', namespace: kube.namespace, plural, name: 'first' })) as KubernetesObject;
      expect(live.metadata?.managedFields?.length).toBeGreaterThan(0);
      expect(cached?.metadata?.managedFields).toBeUndefined();
      const listing = resilientInformer<KubernetesObject>(kube.kc, path, () => custom.listNamespacedCustomObject({ group, version: 'v1', namespace: kube.namespace, plural }));
      await listing.start();
      try {
        expect(listing.synced).toBe(true);
        expect(listing.informer.get('first', kube.namespace)?.metadata?.name).toBe('first');
        expect(listing.informer.get('first', kube.namespace)?.metadata?.managedFields).toBeUndefined();
      } finally {
        await listing.stop();
      }
    } finally {
      await stop();
    }
  });

  it('retryNow restarts a watch that failed for a missing CRD at once, not after its backoff', async () => {
    const plural = uniqueName('gadgets').replace(/-/g, '');
    const kind = `G${plural}`;
    const custom = kube.kc.makeApiClient(CustomObjectsApi);
    const path = `/apis/${group}/v1/namespaces/${kube.namespace}/${plural}`;
    const errors: unknown[] = [];
    // A backoff far beyond the test's waits: only retryNow can bring the watch back in time.
    const started = resilientInformer<KubernetesObject>(
      kube.kc,
      path,
      () => custom.listNamespacedCustomObject({ group, version: 'v1', namespace: kube.namespace, plural }),
      { initialBackoffMs: 600_000, maxBackoffMs: 600_000, onError: (err) => errors.push(err) },
    );
    await started.start();
    try {
      expect(started.synced).toBe(false);
      expect(errors.length).toBeGreaterThan(0);
      await installCrds(kube.kc, [crd(plural, kind)]);
      await custom.createNamespacedCustomObject({ group, version: 'v1', namespace: kube.namespace, plural, body: { apiVersion: `${group}/v1`, kind, metadata: { name: 'late' } } });
      // A CRD just established may still refuse a list for a moment: each retry that fails schedules the
      // (long) backoff again, and the next retryNow takes its place.
      await eventually('the watch back with the object', async () => {
        started.retryNow();
        return started.synced && started.informer.get('late', kube.namespace) !== undefined;
      }, 30_000, 500);
    } finally {
      await started.stop();
    }
  });
});
