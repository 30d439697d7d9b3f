import { describe, expect, it } from 'vitest';
import { awaitingProviderPhase } from './awaiting-provider.ts';

const provider = { name: 'acme', selectedReason: 'explicit provider selection' };

describe('awaitingProviderPhase', () => {
  it('a selection written to an object without a phase says Pending, naming the provider', () => {
    expect(awaitingProviderPhase(undefined, { provider })).toEqual({ phase: 'Pending', message: "Waiting for provider 'acme' to report on its resource" });
    expect(awaitingProviderPhase({ conditions: [] }, { provider })?.phase).toBe('Pending');
  });

  it("leaves the phase to whoever has one: the write's own, the object's, none without a selection or while paused", () => {
    const own = { phase: 'Pending' as const, message: 'spec invalid' };
    expect(awaitingProviderPhase(undefined, { provider, phase: own })).toBe(own);
    expect(awaitingProviderPhase({ phase: 'Running' }, { provider })).toBeUndefined();
    expect(awaitingProviderPhase(undefined, {})).toBeUndefined();
    expect(awaitingProviderPhase(undefined, { provider, paused: { status: 'True', reason: 'ReconcilePaused', message: '' } })).toBeUndefined();
  });
});
