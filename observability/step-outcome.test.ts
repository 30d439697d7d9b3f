import { describe, expect, it } from 'vitest';
import { stepOutcome } from './step-outcome.ts';

describe('stepOutcome', () => {
  const readers = new Map([['applyThing', (result: unknown) => ({ summary: `applied ${JSON.stringify(result)}`, fields: { n: 1 } })]]);

  it('reads a result with the reader handed in for its activity type', () => {
    expect(stepOutcome(readers, 'applyThing', { a: 1 })).toEqual({ summary: 'applied {"a":1}', fields: { n: 1 } });
  });

  it('has no outcome for an activity no reader reads, or a result that is no object', () => {
    expect(stepOutcome(readers, 'other', { a: 1 })).toEqual({ fields: {} });
    expect(stepOutcome(readers, 'applyThing', undefined)).toEqual({ fields: {} });
    expect(stepOutcome(readers, 'applyThing', 'done')).toEqual({ fields: {} });
  });
});
