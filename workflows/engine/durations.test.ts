import { describe, expect, it } from 'vitest';
import { backoffMs, toMs } from './durations.ts';

describe('durations', () => {
  it('parses the units settings use', () => {
    expect(toMs('5m')).toBe(300_000);
    expect(toMs('30s')).toBe(30_000);
    expect(toMs('250ms')).toBe(250);
    expect(toMs('1.5s')).toBe(1_500);
    expect(() => toMs('soon')).toThrow(/invalid duration 'soon'/);
  });

  it('doubles the retry delay up to its cap', () => {
    expect([1, 2, 3, 4, 10].map((n) => backoffMs(n, '5s', '30s'))).toEqual([5_000, 10_000, 20_000, 30_000, 30_000]);
  });
});
