import { describe, expect, it } from 'vitest';
import { statusUnchanged } from './unchanged.ts';

const ready = { type: 'Ready', status: 'True' as const, reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1 };
const validated = { type: 'Validated', status: 'True' as const, reason: 'ValidationPassed', message: 'fine', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1 };
const CORE = { conditionTypes: ['Validated', 'ProviderSelected'], shared: ['provider'] };

describe('statusUnchanged', () => {
  it('is true when every field and condition the manager writes is already there, whatever others wrote', () => {
    const live = { phase: 'Running', provider: { name: 'dynamo', resourceName: 'x', resourceKind: 'K' }, conditions: [validated, ready] };
    expect(statusUnchanged(live, { phase: 'Running', provider: { resourceName: 'x', resourceKind: 'K' }, conditions: [ready] }, CORE)).toBe(true);
  });
  it('sees a changed field, a changed condition and a field that is no longer set', () => {
    const live = { phase: 'Running', message: 'old', conditions: [ready] };
    expect(statusUnchanged(live, { phase: 'Deploying', message: 'old', conditions: [ready] }, CORE)).toBe(false);
    expect(statusUnchanged(live, { phase: 'Running', message: 'old', conditions: [{ ...ready, status: 'False' }] }, CORE)).toBe(false);
    expect(statusUnchanged(live, { phase: 'Running', message: undefined, conditions: [ready] }, CORE)).toBe(false);
  });
  it('sees a condition of its own that it no longer sets (server-side apply would remove it)', () => {
    const live = { phase: 'Running', conditions: [ready, { ...ready, type: 'ResourceCreated' }] };
    expect(statusUnchanged(live, { phase: 'Running', conditions: [ready] }, CORE)).toBe(false);
  });
  it('compares fields other than shared ones exactly (a subfield it stopped setting is a change)', () => {
    const live = { replicas: { desired: 1, ready: 1, available: 1 }, conditions: [] };
    expect(statusUnchanged(live, { replicas: { desired: 1, ready: 1 }, conditions: [] }, CORE)).toBe(false);
    expect(statusUnchanged(live, { replicas: { desired: 1, ready: 1, available: 1 }, conditions: [] }, CORE)).toBe(true);
  });
  it('writes when there is no status yet', () => {
    expect(statusUnchanged(undefined, { phase: 'Pending', conditions: [] }, CORE)).toBe(false);
  });
});
