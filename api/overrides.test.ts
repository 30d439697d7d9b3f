import { describe, expect, it } from 'vitest';
import { checkOverrides, describeOverrideType, isQuantity, NO_OVERRIDES, type OverrideSchema } from './overrides.ts';

// Shaped like the seed's Dynamo and KubeRay override tables (§4.15).
const schema: OverrideSchema = {
  type: 'object',
  properties: {
    routerMode: { type: 'string', enum: ['kv', 'round-robin', 'none'] },
    frontend: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', minimum: 0 },
        resources: { type: 'object', properties: { cpu: { type: 'string' }, memory: { type: 'string' } } },
      },
    },
    rayStartParams: { type: 'map', values: { type: 'string' } },
    ports: { type: 'array', items: { type: 'integer' } },
    ratio: { type: 'number' },
    debug: { type: 'boolean' },
    extra: { type: 'any' },
  },
};

const P = 'spec.provider.overrides';

describe('checkOverrides', () => {
  it('accepts a valid value', () => {
    const value = {
      routerMode: 'kv',
      frontend: { replicas: 2, resources: { cpu: '4', memory: '8Gi' } },
      rayStartParams: { 'num-cpus': '0', 'dashboard-host': '0.0.0.0' },
      ports: [8000, 8001],
      ratio: 0.5,
      debug: true,
      extra: { anything: [1, { deep: null }] },
    };
    expect(checkOverrides(value, schema)).toEqual({ errors: [], warnings: [] });
  });

  it('warns about unknown keys at any depth with the full path', () => {
    const result = checkOverrides({ routr: 'kv', frontend: { replicsa: 2, resources: { gpu: '1' } } }, schema);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      { field: `${P}.frontend.replicsa`, message: `Unknown override key '${P}.frontend.replicsa' is ignored` },
      { field: `${P}.frontend.resources.gpu`, message: `Unknown override key '${P}.frontend.resources.gpu' is ignored` },
      { field: `${P}.routr`, message: `Unknown override key '${P}.routr' is ignored` },
    ]);
  });

  it('reports wrong types with the path and the expected type', () => {
    const result = checkOverrides(
      { routerMode: 'fastest', frontend: { replicas: 1.5, resources: 'big' }, rayStartParams: { 'num-cpus': 0 }, ports: [80, '81'], ratio: 'half', debug: 'yes' },
      schema,
    );
    expect(result.warnings).toEqual([]);
    expect(result.errors).toEqual([
      { field: `${P}.debug`, message: `${P}.debug must be a boolean, got string` },
      { field: `${P}.frontend.replicas`, message: `${P}.frontend.replicas must be an integer, got number` },
      { field: `${P}.frontend.resources`, message: `${P}.frontend.resources must be an object, got string` },
      { field: `${P}.ports[1]`, message: `${P}.ports[1] must be an integer, got string` },
      { field: `${P}.ratio`, message: `${P}.ratio must be a number, got string` },
      { field: `${P}.rayStartParams.num-cpus`, message: `${P}.rayStartParams.num-cpus must be a string, got integer` },
      { field: `${P}.routerMode`, message: `${P}.routerMode must be one of kv, round-robin, none, got "fastest"` },
    ]);
  });

  it('checks minimums', () => {
    expect(checkOverrides({ frontend: { replicas: -1 } }, schema).errors).toEqual([
      { field: `${P}.frontend.replicas`, message: `${P}.frontend.replicas must be at least 0, got -1` },
    ]);
  });

  it('null is a wrong type, not an omission', () => {
    expect(checkOverrides({ frontend: null }, schema).errors).toEqual([
      { field: `${P}.frontend`, message: `${P}.frontend must be an object, got null` },
    ]);
  });

  it('the root must be an object', () => {
    expect(checkOverrides([1], schema).errors).toEqual([{ field: P, message: `${P} must be an object, got list` }]);
  });

  it('a provider without overrides warns about every key', () => {
    expect(checkOverrides({ a: 1 }, NO_OVERRIDES).warnings).toEqual([{ field: `${P}.a`, message: `Unknown override key '${P}.a' is ignored` }]);
  });

  it('quotes keys that are not identifiers and takes a custom base path', () => {
    expect(checkOverrides({ 'a.b': 1 }, NO_OVERRIDES, 'overrides').warnings[0]?.field).toBe('overrides["a.b"]');
  });

  it('keys named like Object.prototype members are unknown, not crashes', () => {
    expect(checkOverrides(JSON.parse('{"__proto__": 1, "constructor": 2}'), NO_OVERRIDES).warnings).toHaveLength(2);
  });

  describe('quantity', () => {
    const resources: OverrideSchema = {
      type: 'object',
      properties: { memory: { type: 'quantity' }, cpu: { type: 'quantity' }, sizes: { type: 'map', values: { type: 'quantity' } } },
    };
    const errorsOf = (value: unknown) => checkOverrides(value, resources).errors;

    it('accepts strings in the Kubernetes quantity grammar', () => {
      for (const q of ['16Gi', '500m', '2', '0.5', '.5', '1e3', '128974848', '129M', '1.5Ki', '+1']) {
        expect(errorsOf({ memory: q }), q).toEqual([]);
      }
    });

    it('accepts a non-negative number, as Kubernetes does (memory: 16)', () => {
      expect(errorsOf({ memory: 16, cpu: 0.5, sizes: { a: 0 } })).toEqual([]);
    });

    it('refuses a string outside the grammar, naming the path and the value', () => {
      expect(errorsOf({ memory: '16 GB', sizes: { 'a.b': 'lots' } })).toEqual([
        { field: `${P}.memory`, message: `${P}.memory must be a Kubernetes quantity such as 16Gi or 500m, got "16 GB"` },
        { field: `${P}.sizes["a.b"]`, message: `${P}.sizes["a.b"] must be a Kubernetes quantity such as 16Gi or 500m, got "lots"` },
      ]);
    });

    it('refuses negative amounts, empty strings and other types', () => {
      expect(errorsOf({ memory: -1, cpu: '-500m' })).toEqual([
        { field: `${P}.cpu`, message: `${P}.cpu must be a Kubernetes quantity such as 16Gi or 500m, got "-500m"` },
        { field: `${P}.memory`, message: `${P}.memory must be a Kubernetes quantity such as 16Gi or 500m, got -1` },
      ]);
      expect(errorsOf({ memory: '' })[0]?.message).toBe(`${P}.memory must be a Kubernetes quantity such as 16Gi or 500m, got ""`);
      expect(errorsOf({ memory: true, cpu: null })).toEqual([
        { field: `${P}.cpu`, message: `${P}.cpu must be a Kubernetes quantity such as 16Gi or 500m, got null` },
        { field: `${P}.memory`, message: `${P}.memory must be a Kubernetes quantity such as 16Gi or 500m, got boolean` },
      ]);
    });

    it('isQuantity is the same test', () => {
      expect([isQuantity('16Gi'), isQuantity(16), isQuantity(Number.POSITIVE_INFINITY), isQuantity(Number.NaN), isQuantity('16gb')]).toEqual([true, true, false, false, false]);
    });
  });

  it('describes types for messages and docs', () => {
    expect(describeOverrideType({ type: 'quantity' })).toBe('a Kubernetes quantity such as 16Gi or 500m');
    expect(describeOverrideType({ type: 'map', values: { type: 'quantity' } })).toBe('a map of Kubernetes quantities (such as 16Gi or 500m)');
    expect(describeOverrideType({ type: 'map', values: { type: 'string' } })).toBe('a map of strings');
    expect(describeOverrideType({ type: 'array', items: { type: 'object', properties: {} } })).toBe('a list of objects');
  });
});
