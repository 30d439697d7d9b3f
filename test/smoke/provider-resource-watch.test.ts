// The watch of a provider's resources starts as soon as the provider's CRD is installed, told by the
// CRD's own watch, not at its next periodic look for the CRD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from '../../api/constants.ts';
import { installCrds } from '../../devstack/crds.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { InformerSet } from '../../kube/informer-set.ts';
import { watchProviderResources } from '../../watcher/provider-resource-watch.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { thirdPartyProvider } from '../support/third-party-provider.ts';

describe('provider resource watch', () => {
  let kube: TestKube;
  let informers: InformerSet;
  beforeAll(async () => {
    kube = await testKube('smoke-prw');
    informers = new InformerSet(kube.kc);
  });
  afterAll(async () => {
    await informers?.stop();
    await kube?.cleanup();
  });

  it('starts when the CRD is installed after it, without waiting for its next look', async () => {
    const widget = thirdPartyProvider(`late-${uniqueName('c').slice(2)}`);
    const changes: string[] = [];
    // The periodic look is far beyond the test's waits: only the CRD's watch can start the resource watch.
    const watch = watchProviderResources({
      kc: kube.kc,
      informers,
      resource: widget.provider.resource,
      onChange: (obj, reason) => changes.push(`${obj.metadata?.name}: ${reason}`),
      crdPollMs: 600_000,
    });
    await informers.start();
    try {
      await installCrds(kube.kc, [widget.crd]);
      const ref = { group: widget.resource.group, version: widget.resource.version, plural: widget.resource.plural, namespace: kube.namespace, name: 'managed' };
      const body = { apiVersion: `${widget.resource.group}/${widget.resource.version}`, kind: widget.provider.resource.kind, metadata: { name: 'managed', namespace: kube.namespace, labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE } }, spec: {} };
      // Created (again) until the watch reports it: the first create may precede the watch's list.
      await eventually('the managed resource reported by the watch', async () => {
        await new CustomObjects(kube.kc).apply(ref, body as AnyObject, 'smoke-test');
        return changes.some((c) => c.startsWith('managed: '));
      }, 30_000, 500);
      expect(changes[0]).toMatch(/^managed: ModelInference (added|changed)$/);
    } finally {
      await watch.stop();
    }
  });
});
