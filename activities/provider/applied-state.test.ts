import { describe, expect, it } from 'vitest';
import { stateHash } from './applied-state.ts';

describe('stateHash', () => {
  const stored = { apiVersion: 'x/v1', kind: 'K', metadata: { name: 'a', resourceVersion: '1', labels: { l: '1' }, annotations: { a: '1' } }, spec: { replicas: 1 }, status: { ready: false } };

  it('ignores status, annotations and server-managed metadata', () => {
    expect(stateHash({ ...stored, status: { ready: true }, metadata: { ...stored.metadata, resourceVersion: '9', annotations: { b: '2' } } })).toBe(stateHash(stored));
  });

  it('changes when a field or a label is edited', () => {
    expect(stateHash({ ...stored, spec: { replicas: 2 } })).not.toBe(stateHash(stored));
    expect(stateHash({ ...stored, spec: { replicas: 1, extra: true } })).not.toBe(stateHash(stored));
    expect(stateHash({ ...stored, metadata: { ...stored.metadata, labels: { l: '2' } } })).not.toBe(stateHash(stored));
  });
});
