import { describe, expect, it } from 'vitest';
import { childPath, lostFields } from './compare.ts';

describe('lostFields', () => {
  const sent = {
    apiVersion: 'nvidia.com/v1alpha1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llama-8b', namespace: 'default', labels: { 'kubeairunway.ai/managed-by': 'kubeairunway' } },
    spec: { services: { Frontend: { replicas: 1, 'router-mode': 'kv', envs: [{ name: 'A', value: '1' }] } }, empty: {} },
  };

  it('finds nothing when every sent field comes back, whatever the server adds', () => {
    const returned = structuredClone(sent) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test navigates JSON
    returned.metadata.uid = 'u';
    returned.metadata.resourceVersion = '1';
    returned.metadata.managedFields = [{ manager: 'x' }];
    returned.spec.services.Frontend.componentType = 'frontend'; // a schema default
    returned.status = {};
    expect(lostFields(sent, returned)).toEqual([]);
  });

  it('reports a pruned field at the root of what was lost, with a bracketed path for keys that are not identifiers', () => {
    const returned = structuredClone(sent) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test navigates JSON
    delete returned.spec.services.Frontend['router-mode'];
    delete returned.spec.empty;
    expect(lostFields(sent, returned)).toEqual([
      { path: 'spec.services.Frontend["router-mode"]', kind: 'pruned', sent: 'kv' },
      { path: 'spec.empty', kind: 'pruned', sent: {} },
    ]);
  });

  it('reports a whole lost subtree once', () => {
    const returned = { ...structuredClone(sent), spec: {} };
    expect(lostFields(sent, returned)).toEqual([{ path: 'spec.services', kind: 'pruned', sent: sent.spec.services }, { path: 'spec.empty', kind: 'pruned', sent: {} }]);
  });

  it('reports changed values and types, and list items that did not come back', () => {
    const returned = structuredClone(sent) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test navigates JSON
    returned.spec.services.Frontend.replicas = '1';
    returned.spec.services.Frontend.envs = [];
    returned.metadata.labels = 'x';
    expect(lostFields(sent, returned)).toEqual([
      { path: 'metadata.labels', kind: 'changed', sent: sent.metadata.labels, returned: 'x' },
      { path: 'spec.services.Frontend.replicas', kind: 'changed', sent: 1, returned: '1' },
      { path: 'spec.services.Frontend.envs[0]', kind: 'pruned', sent: { name: 'A', value: '1' } },
    ]);
  });

  it('a list sent where the answer has a map (or the reverse) is changed', () => {
    expect(lostFields({ a: [1] }, { a: { 0: 1 } })).toEqual([{ path: 'a', kind: 'changed', sent: [1], returned: { 0: 1 } }]);
    expect(lostFields({ a: { b: 1 } }, { a: [1] })).toEqual([{ path: 'a', kind: 'changed', sent: { b: 1 }, returned: [1] }]);
  });

  it('skips the paths it is told the server may rewrite (a generated name)', () => {
    const returned = { ...structuredClone(sent), metadata: { ...sent.metadata, name: 'llama-8b-x7k2p' } };
    expect(lostFields(sent, returned)).toHaveLength(1);
    expect(lostFields(sent, returned, { ignore: ['metadata.name'] })).toEqual([]);
  });

  it('null sent and nothing returned is pruned; equal scalars, including NaN-free numbers, match', () => {
    expect(lostFields({ a: null, b: 0.5 }, { b: 0.5 })).toEqual([{ path: 'a', kind: 'pruned', sent: null }]);
  });
});

describe('childPath', () => {
  it('dots identifiers and brackets anything else', () => {
    expect(childPath('', 'spec')).toBe('spec');
    expect(childPath('spec', 'services')).toBe('spec.services');
    expect(childPath('metadata.labels', 'app.kubernetes.io/name')).toBe('metadata.labels["app.kubernetes.io/name"]');
  });
});
