import { describe, expect, it } from 'vitest';
import type { InferenceProviderConfig } from '../api/types.ts';
import { heartbeatStaleCondition, livenessCheckIntervalMs, PROVIDER_STALE_AFTER_MS, staleReadyProviders, transitionTime, workerReadyCondition } from './provider-liveness.ts';

const config = (name: string, status: InferenceProviderConfig['status']): InferenceProviderConfig => ({ metadata: { name }, spec: {}, status });
const now = Date.parse('2026-11-27T12:00:00Z');

describe('provider liveness', () => {
  it('finds the configs that say ready with a heartbeat older than the bound, and only those', () => {
    const configs = [
      config('fresh', { ready: true, lastHeartbeat: '2026-11-27T11:59:00Z' }),
      config('at-bound', { ready: true, lastHeartbeat: '2026-11-27T11:57:00Z' }),
      config('stale', { ready: true, lastHeartbeat: '2026-11-27T11:56:59Z' }),
      config('stale-not-ready', { ready: false, lastHeartbeat: '2026-11-27T10:00:00Z' }),
      config('by-hand', { ready: true }),
      config('garbage', { ready: true, lastHeartbeat: 'yesterday' }),
      config('never-reported', undefined),
    ];
    expect(staleReadyProviders(configs, now, PROVIDER_STALE_AFTER_MS)).toEqual([{ name: 'stale', lastHeartbeat: '2026-11-27T11:56:59Z' }]);
    expect(staleReadyProviders(configs, now, 10_000).map((s) => s.name)).toEqual(['fresh', 'at-bound', 'stale']);
  });

  it('checks a sixth of the bound apart, between 1 and 30 seconds', () => {
    expect(livenessCheckIntervalMs(PROVIDER_STALE_AFTER_MS)).toBe(30_000);
    expect(livenessCheckIntervalMs(60_000)).toBe(10_000);
    expect(livenessCheckIntervalMs(3_000)).toBe(1_000);
    expect(livenessCheckIntervalMs(3_600_000)).toBe(30_000);
  });

  it('keeps the transition time while the condition status stays, and moves it when the status changes', () => {
    const stored = [heartbeatStaleCondition('2026-11-27T11:00:00Z', PROVIDER_STALE_AFTER_MS, '2026-11-27T11:03:00Z')];
    expect(transitionTime(stored, 'False', '2026-11-27T12:00:00Z')).toBe('2026-11-27T11:03:00Z');
    expect(transitionTime(stored, 'True', '2026-11-27T12:00:00Z')).toBe('2026-11-27T12:00:00Z');
    expect(transitionTime(undefined, 'True', '2026-11-27T12:00:00Z')).toBe('2026-11-27T12:00:00Z');
  });

  it('says why in words users can act on', () => {
    expect(heartbeatStaleCondition('2026-11-27T11:00:00Z', PROVIDER_STALE_AFTER_MS, 't')).toMatchObject({
      status: 'False',
      reason: 'HeartbeatStale',
      message: expect.stringMatching(/^No heartbeat from the provider's worker since 2026-11-27T11:00:00Z \(more than 3m0s\)/),
    });
    expect(workerReadyCondition(30_000, 't').message).toBe("The provider's worker is running and reports every 30s");
  });
});
