import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelay } from './backoff.ts';

const opts = { initialMs: 1_000, maxMs: 30_000 };

describe('backoffDelay', () => {
  it('stays within [ceiling/2, ceiling] for every attempt and random draw', () => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const ceiling = Math.min(30_000, 1_000 * 2 ** attempt);
      for (const r of [0, 0.25, 0.5, 0.999999]) {
        const d = backoffDelay(attempt, opts, () => r);
        expect(d).toBeGreaterThanOrEqual(ceiling / 2);
        expect(d).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('doubles until the cap and never exceeds it', () => {
    const top = (a: number) => backoffDelay(a, opts, () => 1);
    expect([0, 1, 2, 3, 4, 5, 6, 100].map(top)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    const bottom = (a: number) => backoffDelay(a, opts, () => 0);
    expect([0, 1, 5, 100].map(bottom)).toEqual([500, 1_000, 15_000, 15_000]);
  });

  it('spreads retries of the same attempt (jitter)', () => {
    const draws = new Set(Array.from({ length: 50 }, () => backoffDelay(3, opts)));
    expect(draws.size).toBeGreaterThan(1);
  });
});

describe('Backoff', () => {
  it('grows with each retry and starts over after reset', () => {
    const b = new Backoff(opts, () => 1);
    expect([b.next(), b.next(), b.next()]).toEqual([1_000, 2_000, 4_000]);
    expect(b.attempts).toBe(3);
    b.reset();
    expect(b.next()).toBe(1_000);
  });
});
