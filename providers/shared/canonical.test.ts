import { describe, expect, it } from 'vitest';
import { canonicalize, sortedMap, stableStringify } from './canonical.ts';

describe('canonical JSON', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });
  it('drops undefined members and non-JSON values; undefined in arrays becomes null', () => {
    expect(canonicalize({ a: undefined, b: () => 1, c: [undefined, 1], d: Number.NaN })).toEqual({ c: [null, 1], d: null });
  });
  it('sortedMap returns undefined for empty maps', () => {
    expect(sortedMap({})).toBeUndefined();
    expect(Object.keys(sortedMap({ b: 'x', a: 'y' }) ?? {})).toEqual(['a', 'b']);
  });
});
