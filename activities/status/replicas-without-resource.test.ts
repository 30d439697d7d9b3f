import { describe, expect, it } from 'vitest';
import { claimsReplicas, replicasWithoutResource } from './replicas-without-resource.ts';

describe('replicasWithoutResource', () => {
  it('keeps the desired count and shows none ready or available', () => {
    expect(replicasWithoutResource({ desired: 3, ready: 3, available: 2 })).toEqual({ desired: 3, ready: 0, available: 0 });
  });

  it('a status without a desired count shows 0 of 0', () => {
    expect(replicasWithoutResource({ ready: 1 })).toEqual({ desired: 0, ready: 0, available: 0 });
  });

  it('nothing when status never showed counts', () => {
    expect(replicasWithoutResource(undefined)).toBeUndefined();
  });
});

describe('claimsReplicas', () => {
  it('true when any replica is shown ready or available', () => {
    expect(claimsReplicas({ desired: 1, ready: 1 })).toBe(true);
    expect(claimsReplicas({ desired: 1, ready: 0, available: 1 })).toBe(true);
  });

  it('false for zero counts or none at all', () => {
    expect(claimsReplicas({ desired: 2, ready: 0, available: 0 })).toBe(false);
    expect(claimsReplicas({ desired: 2 })).toBe(false);
    expect(claimsReplicas(undefined)).toBe(false);
  });
});
