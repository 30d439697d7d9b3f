import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.ts';

describe('BoundedMap', () => {
  it('forgets the least recently set entry beyond its capacity', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 3).set('c', 4);
    expect([...m.entries()]).toEqual([['a', 3], ['c', 4]]);
  });
});
