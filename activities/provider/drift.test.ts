import { describe, expect, it } from 'vitest';
import { comparable, containsRendered } from './drift.ts';

describe('containsRendered', () => {
  const rendered = { spec: { replicas: 2, args: ['--a', '--b'], env: [{ name: 'X', value: '1' }] } };

  it('accepts a live object that only adds fields', () => {
    expect(containsRendered(rendered, { spec: { replicas: 2, args: ['--a', '--b'], env: [{ name: 'X', value: '1', extra: true }], defaulted: 'y' }, status: {} })).toBe(true);
  });

  it('reports a changed, removed or reordered value as drift', () => {
    expect(containsRendered(rendered, { spec: { replicas: 3, args: ['--a', '--b'], env: [{ name: 'X', value: '1' }] } })).toBe(false);
    expect(containsRendered(rendered, { spec: { args: ['--a', '--b'], env: [{ name: 'X', value: '1' }] } })).toBe(false);
    expect(containsRendered(rendered, { spec: { replicas: 2, args: ['--b', '--a'], env: [{ name: 'X', value: '1' }] } })).toBe(false);
    expect(containsRendered(rendered, { spec: { replicas: 2, args: ['--a', '--b', '--c'], env: [{ name: 'X', value: '1' }] } })).toBe(false);
  });

  it('compares labels and annotations but not server-managed metadata', () => {
    const ours = comparable({ metadata: { name: 'a', labels: { l: '1' }, ownerReferences: [] }, spec: { x: 1 } });
    expect(ours).toEqual({ metadata: { labels: { l: '1' }, annotations: {} }, spec: { x: 1 } });
    expect(containsRendered(ours, { metadata: { name: 'a', uid: 'u', labels: { l: '1', other: '2' } }, spec: { x: 1 } })).toBe(true);
  });
});
