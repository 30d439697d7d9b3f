import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diff, pointerSegment, type PatchOperation } from './json-patch.ts';

/** A small RFC 6902 applier, enough to check that a diff turns one document into the other. */
function apply(doc: unknown, ops: readonly PatchOperation[]): unknown {
  let root = structuredClone(doc);
  for (const op of ops) {
    const keys = op.path.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (keys.length === 0) {
      root = op.op === 'remove' ? undefined : structuredClone(op.value);
      continue;
    }
    let parent = root as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    const last = keys.at(-1)!;
    if (op.op === 'remove') {
      // Own keys only: `toString` is "in" every object, yet a patch may add it as a key of its own.
      if (!Object.hasOwn(parent, last)) throw new Error(`remove of missing ${op.path}`);
      delete parent[last];
    } else {
      if (op.op === 'replace' && !Object.hasOwn(parent, last)) throw new Error(`replace of missing ${op.path}`);
      if (op.op === 'add' && Object.hasOwn(parent, last)) throw new Error(`add over existing ${op.path}`);
      parent[last] = structuredClone(op.value);
    }
  }
  return root;
}

describe('diff', () => {
  it('adds, replaces and removes only what changed', () => {
    expect(diff({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { a: 1, b: { c: 5 }, e: [1, 2], f: null })).toEqual([
      { op: 'remove', path: '/b/d' },
      { op: 'replace', path: '/b/c', value: 5 },
      { op: 'replace', path: '/e', value: [1, 2] },
      { op: 'add', path: '/f', value: null },
    ]);
  });

  it('escapes keys as JSON pointers (RFC 6901)', () => {
    expect(pointerSegment('a/b~c')).toBe('a~1b~0c');
    expect(diff({}, { 'nvidia.com/gpu': 1 }, '/spec')).toEqual([{ op: 'add', path: '/spec/nvidia.com~1gpu', value: 1 }]);
  });

  it('a null replaced by an object is a replace', () => {
    expect(diff({ serving: null }, { serving: { mode: 'aggregated' } })).toEqual([{ op: 'replace', path: '/serving', value: { mode: 'aggregated' } }]);
  });

  it('equal documents give no operations, whatever the key order', () => {
    expect(diff({ a: 1, b: 2 }, { b: 2, a: 1 })).toEqual([]);
  });

  it('a key named like an Object.prototype member is added, not taken as present', () => {
    expect(apply({ a: {} }, diff({ a: {} }, { a: { toString: '' } }))).toEqual({ a: { toString: '' } });
  });

  it('applying the diff yields the target (property)', () => {
    const obj = fc.dictionary(fc.constantFrom('a', 'b', 'c/d', 'e~f'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    fc.assert(
      fc.property(obj, obj, (before, after) => {
        expect(apply(before, diff(before, after))).toEqual(after);
      }),
    );
  });
});
