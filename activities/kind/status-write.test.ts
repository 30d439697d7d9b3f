import { describe, expect, it } from 'vitest';
import { apiVersionOf, conditionedStatus, statusDocument, statusUnchanged } from './status-write.ts';

const REF = { namespace: 'ns', name: 'a', uid: 'u1' };
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:05:00Z';

describe('statusUnchanged', () => {
  it('compares the whole status when the controller is its only writer (exact)', () => {
    expect(statusUnchanged({ state: 'Running', message: 'ok' }, { state: 'Running', message: 'ok' }, 'exact')).toBe(true);
    // A field the new status leaves out must go: that is a write.
    expect(statusUnchanged({ state: 'Running', waitingFor: 'pods' }, { state: 'Running' }, 'exact')).toBe(false);
    expect(statusUnchanged(undefined, {}, 'exact')).toBe(true);
  });

  it('compares only the fields given otherwise, ignoring what else the live status holds', () => {
    expect(statusUnchanged({ phase: 'Ready', other: 1 }, { phase: 'Ready' }, 'fields')).toBe(true);
    expect(statusUnchanged({ phase: 'Ready' }, { phase: 'Failed' }, 'fields')).toBe(false);
    expect(statusUnchanged(undefined, { phase: 'Ready' }, 'fields')).toBe(false);
    // Nested values compare by value, not identity.
    expect(statusUnchanged({ conditions: [{ type: 'Ready', status: 'True' }] }, { conditions: [{ type: 'Ready', status: 'True' }] }, 'fields')).toBe(true);
  });
});

describe('conditionedStatus', () => {
  it('adds the conditions with transition times and the generation it describes', () => {
    const live = { metadata: { generation: 3 }, status: undefined };
    expect(conditionedStatus(live, { phase: 'Ready' }, [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up' }], T0)).toEqual({
      phase: 'Ready',
      conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up', lastTransitionTime: T0, observedGeneration: 3 }],
      observedGeneration: 3,
    });
  });

  it('keeps a condition’s transition time while its status stays, so an unchanged status is no write', () => {
    const first = conditionedStatus({ metadata: { generation: 1 } }, { phase: 'Ready' }, [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up' }], T0);
    const live = { metadata: { generation: 1 }, status: first };
    const again = conditionedStatus(live, { phase: 'Ready' }, [{ type: 'Ready', status: 'True', reason: 'Up', message: 'still up' }], T1);
    expect(again.conditions[0]!.lastTransitionTime).toBe(T0);
    expect(statusUnchanged(live.status, conditionedStatus(live, { phase: 'Ready' }, [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up' }], T1), 'fields')).toBe(true);
    const flipped = conditionedStatus(live, { phase: 'Failed' }, [{ type: 'Ready', status: 'False', reason: 'Down', message: 'down' }], T1);
    expect(flipped.conditions[0]!.lastTransitionTime).toBe(T1);
  });

  it('says generation 0 for an object without one', () => {
    expect(conditionedStatus({ metadata: {} }, {}, [], T0).observedGeneration).toBe(0);
  });
});

describe('statusDocument', () => {
  it('names the kind, the object and its uid (a replaced object of that name is not written)', () => {
    const kind = { group: 'flame.xflops.io', version: 'v1alpha1', plural: 'flameclusters', kind: 'FlameCluster' };
    expect(statusDocument(kind, { ...REF, seenVersion: '9' }, { state: 'Running' })).toEqual({
      apiVersion: 'flame.xflops.io/v1alpha1',
      kind: 'FlameCluster',
      metadata: { name: 'a', namespace: 'ns', uid: 'u1' },
      status: { state: 'Running' },
    });
  });

  it('writes a core kind’s apiVersion without a group', () => {
    expect(apiVersionOf({ group: '', version: 'v1' })).toBe('v1');
    expect(apiVersionOf({ group: 'apps', version: 'v1' })).toBe('apps/v1');
  });
});
