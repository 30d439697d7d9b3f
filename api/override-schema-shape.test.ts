import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOverrideSchema, MAX_OVERRIDE_SCHEMA_DEPTH, overrideSchemaOf } from './override-schema-shape.ts';
import type { OverrideSchema } from './overrides.ts';
import type { InferenceProviderConfig } from './types.ts';
import { validateProviderConfigSpec } from './validate-provider-config.ts';

const S = 'spec.overrideSchema';

const SAMPLE: OverrideSchema = {
  type: 'object',
  description: 'every type once',
  properties: {
    mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
    replicas: { type: 'integer', minimum: 0, maximum: 9 },
    ratio: { type: 'number' },
    on: { type: 'boolean' },
    memory: { type: 'quantity', default: '16Gi' },
    ports: { type: 'array', items: { type: 'integer' } },
    params: { type: 'map', values: { type: 'string' } },
    extra: { type: 'any' },
    none: { type: 'object', properties: {} },
  },
};

describe('checkOverrideSchema', () => {
  it('a well-formed schema has nothing to report, also after a JSON round trip (as read from the cluster)', () => {
    expect(checkOverrideSchema(JSON.parse(JSON.stringify(SAMPLE)), S)).toEqual({ errors: [], warnings: [] });
  });

  it('names every malformed part with its path', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'objekt' },
        b: { type: 'object' },
        c: { type: 'array' },
        d: { type: 'string', enum: ['x', 1] },
        e: { type: 'integer', minimum: '0' },
        f: 'string',
      },
    };
    expect(checkOverrideSchema(schema, S).errors).toEqual([
      { field: `${S}.properties.a`, message: `${S}.properties.a.type must be one of object, string, integer, number, boolean, quantity, array, map, any, got "objekt"` },
      { field: `${S}.properties.b.properties`, message: `${S}.properties.b.properties is required (use {} for no keys)` },
      { field: `${S}.properties.c.items`, message: `${S}.properties.c.items is required (an override schema such as {type: string})` },
      { field: `${S}.properties.d.enum`, message: `${S}.properties.d.enum must be a list of strings, got list` },
      { field: `${S}.properties.e.minimum`, message: `${S}.properties.e.minimum must be a number, got string` },
      { field: `${S}.properties.f`, message: `${S}.properties.f must be an object, got string` },
    ]);
  });

  it('keys a type does not use are warnings', () => {
    expect(checkOverrideSchema({ type: 'string', properties: {} }, S)).toEqual({
      errors: [],
      warnings: [{ field: `${S}.properties`, message: `${S}.properties is not used by an override schema of type string` }],
    });
    expect(checkOverrideSchema({ type: 'quantity', minimum: 0 }, S).warnings).toEqual([
      { field: `${S}.minimum`, message: `${S}.minimum is not used by an override schema of type quantity` },
    ]);
  });

  it('bounds the depth, so a hostile config cannot make admission recurse without end', () => {
    let schema: unknown = { type: 'any' };
    for (let i = 0; i <= MAX_OVERRIDE_SCHEMA_DEPTH; i++) schema = { type: 'map', values: schema };
    const errors = checkOverrideSchema(schema, S).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/nests deeper than 16 levels$/);
  });

  it('never throws, whatever the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = checkOverrideSchema(value, S);
        for (const issue of [...result.errors, ...result.warnings]) expect(issue.field.startsWith(S)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('overrideSchemaOf', () => {
  const config = (overrideSchema: unknown): InferenceProviderConfig => ({ metadata: { name: 'p' }, spec: { overrideSchema } as never });

  it('returns a well-formed published schema, and nothing for a missing or malformed one', () => {
    expect(overrideSchemaOf(config(SAMPLE))).toBe(SAMPLE);
    expect(overrideSchemaOf(config(undefined))).toBeUndefined();
    expect(overrideSchemaOf(config({ type: 'object' }))).toBeUndefined();
    expect(overrideSchemaOf(undefined)).toBeUndefined();
  });
});

describe('validateProviderConfigSpec checks the published schema', () => {
  it('reports a malformed one as errors', () => {
    expect(validateProviderConfigSpec({ overrideSchema: { type: 'map' } }).errors).toEqual([
      { field: `${S}.values`, message: `${S}.values is required (an override schema such as {type: string})` },
    ]);
    expect(validateProviderConfigSpec({ overrideSchema: 'any' }).errors.map((e) => e.field)).toEqual([S]);
  });
});
