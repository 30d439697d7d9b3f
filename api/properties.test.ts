import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.ts';
import { classifyUpdate } from './update-classification.ts';
import { specArbitrary } from './testing/arbitraries.ts';
import { validate } from './validate.ts';

const RUNS = { numRuns: 300 };

describe('properties over specs of the schema shape', () => {
  it('validate never throws, for well-typed specs, garbage and arbitrary values', () => {
    fc.assert(
      fc.property(fc.oneof(specArbitrary(), specArbitrary({ garbage: true }), fc.anything()), (spec) => {
        const result = validate(spec, { installedProviderCRDs: ['kaito'], selectedProvider: 'dynamo', overrideSchema: { type: 'object', properties: {} } });
        expect(Array.isArray(result.errors) && Array.isArray(result.warnings)).toBe(true);
        for (const issue of [...result.errors, ...result.warnings]) {
          expect(typeof issue.field).toBe('string');
          expect(typeof issue.message).toBe('string');
        }
      }),
      RUNS,
    );
  });

  it('a well-typed spec has no type errors (only seed-rule errors)', () => {
    fc.assert(
      fc.property(specArbitrary(), (spec) => {
        for (const e of validate(spec).errors) expect(e.message).not.toMatch(/ must be /);
      }),
      RUNS,
    );
  });

  it('defaults are idempotent and never throw', () => {
    fc.assert(
      fc.property(fc.oneof(specArbitrary(), specArbitrary({ garbage: true })), (spec) => {
        const once = applyDefaults(spec);
        expect(applyDefaults(once)).toEqual(once);
      }),
      RUNS,
    );
  });

  it('defaults do not change what validation finds', () => {
    fc.assert(
      fc.property(specArbitrary(), (spec) => {
        expect(validate(applyDefaults(spec)).errors).toEqual(validate(spec).errors);
      }),
      RUNS,
    );
  });

  it('a spec compared with itself, or with its defaulted form, has no changes', () => {
    fc.assert(
      fc.property(specArbitrary(), (spec) => {
        expect(classifyUpdate(spec, structuredClone(spec))).toEqual({ identity: [], config: [] });
        expect(classifyUpdate(spec, applyDefaults(spec))).toEqual({ identity: [], config: [] });
      }),
      RUNS,
    );
  });
});
