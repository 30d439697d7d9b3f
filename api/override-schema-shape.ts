// A provider publishes the overrides it understands in its InferenceProviderConfig
// (`spec.overrideSchema`), so the admission webhook and the core check `spec.provider.overrides` with
// no provider code (seed 001: the core has zero provider knowledge). Read from the cluster, that schema is
// untrusted JSON: this checks its shape before `checkOverrides` walks it. Never throws.

import { childPath, isPlainObject, jsonTypeName, type OverrideSchema } from './overrides.ts';
import type { InferenceProviderConfig, Issue, ValidationResult } from './types.ts';

/** Deeper than any override table needs; bounds the work a hostile config can cause. */
export const MAX_OVERRIDE_SCHEMA_DEPTH = 16;

const TYPES = ['object', 'string', 'integer', 'number', 'boolean', 'quantity', 'array', 'map', 'any'] as const;

/** Keys each type may carry besides `type`, `description` and `default`. */
const KEYS: Readonly<Record<(typeof TYPES)[number], readonly string[]>> = {
  object: ['properties'],
  string: ['enum'],
  integer: ['minimum', 'maximum'],
  number: ['minimum', 'maximum'],
  boolean: [],
  quantity: [],
  array: ['items'],
  map: ['values'],
  any: [],
};

/** Errors for a value that is not a usable OverrideSchema; warnings for keys it would ignore. */
export function checkOverrideSchema(value: unknown, path: string): ValidationResult {
  const out: ValidationResult = { errors: [], warnings: [] };
  check(value, path, 0, out);
  return out;
}

/** The provider's published override schema, or undefined when it has none or it is malformed. */
export function overrideSchemaOf(config: InferenceProviderConfig | undefined): OverrideSchema | undefined {
  const spec: unknown = config?.spec;
  const schema = isPlainObject(spec) ? spec.overrideSchema : undefined;
  if (schema === undefined || checkOverrideSchema(schema, 'spec.overrideSchema').errors.length > 0) return undefined;
  return schema as OverrideSchema;
}

function check(value: unknown, path: string, depth: number, out: ValidationResult): void {
  const error = (message: string): void => {
    out.errors.push({ field: path, message });
  };
  if (depth > MAX_OVERRIDE_SCHEMA_DEPTH) return error(`${path} nests deeper than ${MAX_OVERRIDE_SCHEMA_DEPTH} levels`);
  if (value === undefined) return error(`${path} is required (an override schema such as {type: string})`);
  if (!isPlainObject(value)) return error(`${path} must be an object, got ${jsonTypeName(value)}`);
  const type = value.type;
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
    return error(`${path}.type must be one of ${TYPES.join(', ')}, got ${JSON.stringify(type ?? null)}`);
  }
  const known = KEYS[type as (typeof TYPES)[number]];
  for (const key of Object.keys(value).sort()) {
    if (key !== 'type' && key !== 'description' && key !== 'default' && !known.includes(key)) {
      const keyPath = childPath(path, key);
      out.warnings.push({ field: keyPath, message: `${keyPath} is not used by an override schema of type ${type}` });
    }
  }
  if (value.description !== undefined && typeof value.description !== 'string') {
    out.errors.push(issue(childPath(path, 'description'), 'a string', value.description));
  }
  switch (type) {
    case 'object':
      return children(value.properties, childPath(path, 'properties'), depth, out);
    case 'array':
      return check(value.items, childPath(path, 'items'), depth + 1, out);
    case 'map':
      return check(value.values, childPath(path, 'values'), depth + 1, out);
    case 'string':
      if (value.enum !== undefined && !(Array.isArray(value.enum) && value.enum.every((v) => typeof v === 'string'))) {
        out.errors.push(issue(childPath(path, 'enum'), 'a list of strings', value.enum));
      }
      return;
    case 'integer':
    case 'number':
      for (const bound of ['minimum', 'maximum'] as const) {
        const b = value[bound];
        if (b !== undefined && !(typeof b === 'number' && Number.isFinite(b))) out.errors.push(issue(childPath(path, bound), 'a number', b));
      }
      return;
  }
}

function children(properties: unknown, path: string, depth: number, out: ValidationResult): void {
  if (!isPlainObject(properties)) {
    const message = properties === undefined ? `${path} is required (use {} for no keys)` : issue(path, 'an object', properties).message;
    out.errors.push({ field: path, message });
    return;
  }
  for (const key of Object.keys(properties).sort()) check(properties[key], childPath(path, key), depth + 1, out);
}

function issue(path: string, expected: string, got: unknown): Issue {
  return { field: path, message: `${path} must be ${expected}, got ${jsonTypeName(got)}` };
}
