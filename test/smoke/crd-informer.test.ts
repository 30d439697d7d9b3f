// Bottom layer: custom resources and informers work against the real API server.
import { type KubernetesObject, CustomObjectsApi } from '@kubernetes/client-node';
import { resilientInformer } from '../../kube/informer.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCrds } from '../../devstack/crds.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';

const group = 'smoke.kubeairunway.test';

describe('CRD and informer', () => {
  let kube: TestKube;
  beforeAll(async () => {
    kube = await testKube('smoke-crd');
  });
  afterAll(async () => kube.cleanup());

  it('installs a CRD, creates a custom resource and sees it through an informer', async () => {
    const plural = uniqueName('widgets').replace(/-/g, '');
    const kind = `W${plural}`;
    await installCrds(kube.kc, [
      {
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
      },
    ]);
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
    } finally {
      await stop();
    }
  });
});
