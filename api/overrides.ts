// `spec.provider.overrides` is free-form in the CRD (seed 001 §4.15: map[string]interface{}); each
// provider describes the keys it understands with an OverrideSchema, and `checkOverrides` compares a
// user's value with it. Seed rule: unknown keys (at any depth) are warnings, wrong types are errors.

import { QUANTITY_STRING_PATTERN } from './common/checks.ts';
import { childPath, jsonTypeName } from './schema/json-types.ts';
import type { Issue, ValidationResult } from './types.ts';

interface SchemaDoc {
  /** Shown by `kubeairunway explain` and in docs. */
  description?: string;
  /** Value the provider uses when the key is omitted (documentation only; never applied here). */
  default?: unknown;
}

export type OverrideSchema =
  | (SchemaDoc & { type: 'object'; properties: Readonly<Record<string, OverrideSchema>> })
  | (SchemaDoc & { type: 'string'; enum?: readonly string[] })
  | (SchemaDoc & { type: 'integer'; minimum?: number; maximum?: number })
  | (SchemaDoc & { type: 'number'; minimum?: number; maximum?: number })
  | (SchemaDoc & { type: 'boolean' })
  /** A Kubernetes resource quantity (cpu, memory, ...): a string such as "16Gi" or "500m", or a non-negative number. */
  | (SchemaDoc & { type: 'quantity' })
  | (SchemaDoc & { type: 'array'; items: OverrideSchema })
  | (SchemaDoc & { type: 'map'; values: OverrideSchema })
  | (SchemaDoc & { type: 'any' });

export { childPath, jsonTypeName };

/** The schema of a provider that accepts no overrides at all (KAITO): every key is unknown. */
export const NO_OVERRIDES: OverrideSchema = { type: 'object', properties: {} };

export const OVERRIDES_PATH = 'spec.provider.overrides';

const QUANTITY = new RegExp(QUANTITY_STRING_PATTERN);

/**
 * Whether `value` is a quantity a pod accepts, as Kubernetes reads one: a string in the Quantity grammar
 * ("16Gi", "500m", "2", "1e3") without a minus sign, or a finite non-negative number (`memory: 16`).
 */
export function isQuantity(value: unknown): value is string | number {
  if (typeof value === 'string') return QUANTITY.test(value);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Human name of the type a schema expects, used in error messages ("an integer", "a map of string"). */
export function describeOverrideType(schema: OverrideSchema): string {
  switch (schema.type) {
    case 'object':
      return 'an object';
    case 'string':
      return schema.enum ? `one of ${schema.enum.join(', ')}` : 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'quantity':
      return 'a Kubernetes quantity such as 16Gi or 500m';
    case 'array':
      return `a list of ${plural(schema.items)}`;
    case 'map':
      return `a map of ${plural(schema.values)}`;
    case 'any':
      return 'any value';
  }
}

function plural(schema: OverrideSchema): string {
  switch (schema.type) {
    case 'object':
      return 'objects';
    case 'string':
      return schema.enum ? `strings (${schema.enum.join(', ')})` : 'strings';
    case 'integer':
      return 'integers';
    case 'number':
      return 'numbers';
    case 'boolean':
      return 'booleans';
    case 'quantity':
      return 'Kubernetes quantities (such as 16Gi or 500m)';
    case 'array':
      return 'lists';
    case 'map':
      return 'maps';
    case 'any':
      return 'values';
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks `value` against `schema`. Never throws. Recursion follows the schema, so its depth is bounded
 * by the schema's depth whatever the value is.
 */
export function checkOverrides(value: unknown, schema: OverrideSchema, path: string = OVERRIDES_PATH): ValidationResult {
  const result: ValidationResult = { errors: [], warnings: [] };
  check(value, schema, path, result);
  return result;
}

function check(value: unknown, schema: OverrideSchema, path: string, out: ValidationResult): void {
  const wrongType = (): void => {
    out.errors.push(typeError(path, schema, value));
  };
  switch (schema.type) {
    case 'any':
      return;
    case 'object': {
      if (!isPlainObject(value)) return wrongType();
      for (const key of Object.keys(value).sort()) {
        const keyPath = childPath(path, key);
        const child = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
        if (child === undefined) {
          out.warnings.push({ field: keyPath, message: `Unknown override key '${keyPath}' is ignored` });
        } else {
          check(value[key], child, keyPath, out);
        }
      }
      return;
    }
    case 'map': {
      if (!isPlainObject(value)) return wrongType();
      for (const key of Object.keys(value).sort()) check(value[key], schema.values, childPath(path, key), out);
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) return wrongType();
      value.forEach((item, index) => check(item, schema.items, `${path}[${index}]`, out));
      return;
    }
    case 'string': {
      if (typeof value !== 'string') return wrongType();
      if (schema.enum && !schema.enum.includes(value)) return wrongType();
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') return wrongType();
      return;
    case 'quantity':
      if (!isQuantity(value)) return wrongType();
      return;
    case 'integer':
    case 'number': {
      const ok = typeof value === 'number' && Number.isFinite(value) && (schema.type === 'number' || Number.isInteger(value));
      if (!ok) return wrongType();
      if (schema.minimum !== undefined && value < schema.minimum) {
        out.errors.push({ field: path, message: `${path} must be at least ${schema.minimum}, got ${value}` });
      } else if (schema.maximum !== undefined && value > schema.maximum) {
        out.errors.push({ field: path, message: `${path} must be at most ${schema.maximum}, got ${value}` });
      }
      return;
    }
  }
}

function typeError(path: string, schema: OverrideSchema, value: unknown): Issue {
  // Where the type was right but the value was not, the value says more than its type.
  const wrongValue =
    (schema.type === 'string' && schema.enum && typeof value === 'string') || (schema.type === 'quantity' && (typeof value === 'string' || typeof value === 'number'));
  const got = !wrongValue ? jsonTypeName(value) : typeof value === 'number' ? String(value) : JSON.stringify(value);
  return { field: path, message: `${path} must be ${describeOverrideType(schema)}, got ${got}` };
}
