import { describe, expect, it } from 'vitest';
import type { InferenceProviderConfig } from '../api/types.ts';
import { ProviderConfigCache } from './provider-configs.ts';

const config = (name: string): InferenceProviderConfig => ({ metadata: { name }, spec: {} });

describe('ProviderConfigCache', () => {
  it('lists once per TTL, and shares one list among concurrent callers', async () => {
    let t = 0;
    let calls = 0;
    const cache = new ProviderConfigCache({ ttlMs: 1_000, now: () => t, list: async () => [config(`c${++calls}`)] });
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(a).toEqual([config('c1')]);
    expect(b).toBe(a);
    t = 999;
    expect(await cache.get()).toEqual([config('c1')]);
    t = 1_000;
    expect(await cache.get()).toEqual([config('c2')]);
    cache.invalidate();
    expect(await cache.get()).toEqual([config('c3')]);
  });

  it('serves a recent list when listing fails, nothing when it is too old', async () => {
    let t = 0;
    let fail = false;
    const errors: unknown[] = [];
    const cache = new ProviderConfigCache({
      ttlMs: 1_000,
      maxStaleMs: 5_000,
      now: () => t,
      list: async () => {
        if (fail) throw new Error('down');
        return [config('a')];
      },
      onError: (e) => errors.push(e),
    });
    await cache.get();
    fail = true;
    t = 3_000;
    expect(await cache.get()).toEqual([config('a')]);
    t = 6_000;
    expect(await cache.get()).toBeUndefined();
    expect(errors).toHaveLength(2);
  });

  it('does not hold an admission request longer than waitMs', async () => {
    const cache = new ProviderConfigCache({ waitMs: 20, list: () => new Promise(() => undefined) });
    const started = Date.now();
    expect(await cache.get()).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
