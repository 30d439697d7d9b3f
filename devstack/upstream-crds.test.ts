import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyObject } from '../kube/custom-objects.ts';
import { hasUpstreamCrds, loadUpstreamCrd, upstreamCrdPath, upstreamCrdsDir, withoutConversionWebhook } from './upstream-crds.ts';

const dir = mkdtempSync(join(tmpdir(), 'upstream-crds-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The shape of Dynamo's CRDs: two versions, v1beta1 stored, conversion through the operator's webhook.
function dynamoLike(): AnyObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'dynamographdeployments.nvidia.com' },
    spec: {
      group: 'nvidia.com',
      conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'dynamo-operator-webhook-service', namespace: 'dynamo-system', path: '/convert' } }, conversionReviewVersions: ['v1'] } },
      versions: [
        { name: 'v1alpha1', served: true, storage: false, deprecated: true, schema: { openAPIV3Schema: { type: 'object' } } },
        { name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
    },
  };
}

const versions = (crd: AnyObject) => (crd.spec as { versions: { name: string; served: boolean; storage: boolean }[] }).versions.map((v) => `${v.name}:${v.served ? 'served' : '-'}:${v.storage ? 'storage' : '-'}`);

describe('upstreamCrdsDir', () => {
  it('is ../shared/upstream-crds beside the repository unless the environment says otherwise', () => {
    expect(upstreamCrdsDir('/work/main', {})).toBe('/work/shared/upstream-crds');
    expect(upstreamCrdsDir('/work/main', { KUBEAIRUNWAY_UPSTREAM_CRDS: 'rel/crds' })).toBe(resolve('rel/crds'));
    expect(upstreamCrdPath('/work/main', 'kaitoWorkspaces', {})).toBe('/work/shared/upstream-crds/kaito-workspaces.yaml');
  });

  it('reports missing files and loads present ones', () => {
    const env = { KUBEAIRUNWAY_UPSTREAM_CRDS: dir };
    expect(hasUpstreamCrds('/nowhere', ['kaitoWorkspaces'], env)).toBe(false);
    expect(() => loadUpstreamCrd('/nowhere', 'kaitoWorkspaces', env)).toThrow(/kaito-workspaces\.yaml not found at .*set KUBEAIRUNWAY_UPSTREAM_CRDS/);
    writeFileSync(join(dir, 'kaito-workspaces.yaml'), '---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: workspaces.kaito.sh\n');
    expect(hasUpstreamCrds('/nowhere', ['kaitoWorkspaces'], env)).toBe(true);
    expect(loadUpstreamCrd('/nowhere', 'kaitoWorkspaces', env).metadata?.name).toBe('workspaces.kaito.sh');
  });
});

describe('withoutConversionWebhook', () => {
  it('replaces the webhook with strategy None and leaves versions alone by default', () => {
    const crd = dynamoLike();
    const out = withoutConversionWebhook(crd);
    expect((out.spec as { conversion: unknown }).conversion).toEqual({ strategy: 'None' });
    expect(versions(out)).toEqual(['v1alpha1:served:-', 'v1beta1:served:storage']);
    // The input is not touched (it may be shared between stacks).
    expect((crd.spec as { conversion: { strategy: string } }).conversion.strategy).toBe('Webhook');
  });

  it('moves storage and serving when asked', () => {
    expect(versions(withoutConversionWebhook(dynamoLike(), { storage: 'v1alpha1' }))).toEqual(['v1alpha1:served:storage', 'v1beta1:served:-']);
    expect(versions(withoutConversionWebhook(dynamoLike(), { storage: 'v1alpha1', served: ['v1alpha1'] }))).toEqual(['v1alpha1:served:storage', 'v1beta1:-:-']);
    expect(versions(withoutConversionWebhook(dynamoLike(), { served: ['v1beta1'] }))).toEqual(['v1alpha1:-:-', 'v1beta1:served:storage']);
  });

  it('names the CRD and the version it does not know', () => {
    expect(() => withoutConversionWebhook(dynamoLike(), { storage: 'v2' })).toThrow('dynamographdeployments.nvidia.com: no version v2 (it defines v1alpha1, v1beta1)');
    expect(() => withoutConversionWebhook(dynamoLike(), { served: [] })).toThrow(/served must name at least one version/);
    expect(() => withoutConversionWebhook({ kind: 'ConfigMap', metadata: { name: 'x' } })).toThrow('x: kind is ConfigMap, not CustomResourceDefinition');
    expect(() => withoutConversionWebhook({ kind: 'CustomResourceDefinition', metadata: { name: 'y' }, spec: { versions: [] } })).toThrow('y: spec.versions is empty');
    expect(() => withoutConversionWebhook({ kind: 'CustomResourceDefinition', metadata: { name: 'y' } })).toThrow('y: spec.versions is empty');
    expect(() => withoutConversionWebhook({ kind: 'CustomResourceDefinition', metadata: { name: 'y' }, spec: { versions: [{ served: true }] } })).toThrow('y: every item of spec.versions needs a name');
  });

  it('works on the real Dynamo file when it is there', () => {
    const root = resolve(import.meta.dirname, '..');
    if (!hasUpstreamCrds(root, ['dynamoGraphDeployments'])) return;
    const out = withoutConversionWebhook(loadUpstreamCrd(root, 'dynamoGraphDeployments'), { storage: 'v1beta1' });
    expect((out.spec as { conversion: unknown }).conversion).toEqual({ strategy: 'None' });
    expect(versions(out)).toEqual(['v1alpha1:served:-', 'v1beta1:served:storage']);
  });
});
