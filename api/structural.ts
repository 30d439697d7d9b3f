// Checks a value against an OpenAPI schema of api/crd/ the way the API server would (types, enums,
// bounds, patterns, required keys, unknown fields), so offline validation catches what `kubectl apply`
// would reject. Never throws; recursion follows the schema, so it ends whatever the value holds.

// Pure (no I/O): the type test the cluster-side schema check applies too.
import { article, hasType } from '../kube/schema-check.ts';
import { PATTERN_DESCRIPTIONS } from './crd/model-deployment-schema.ts';
import type { JSONSchemaProps } from './crd/schema-types.ts';
import { childPath, isPlainObject, jsonTypeName } from './overrides.ts';
import type { Issue, ValidationResult } from './types.ts';

export function checkStructure(value: unknown, schema: JSONSchemaProps, path: string): ValidationResult {
  const out: ValidationResult = { errors: [], warnings: [] };
  check(value, schema, path, out);
  return out;
}

function check(value: unknown, schema: JSONSchemaProps, path: string, out: ValidationResult): void {
  const error = (message: string): void => {
    out.errors.push({ field: path, message });
  };
  if (schema.type && !hasType(value, schema.type)) {
    error(`${path} must be ${article(schema.type)}, got ${jsonTypeName(value)}`);
    return;
  }
  if (schema.enum && !schema.enum.includes(value as string | number | boolean)) {
    error(`${path} must be one of ${schema.enum.join(', ')}, got ${JSON.stringify(value)}`);
    return;
  }
  if (typeof value === 'string') checkString(value, schema, path, error);
  if (typeof value === 'number') checkNumber(value, schema, path, error);
  if (Array.isArray(value)) checkArray(value, schema, path, out);
  if (isPlainObject(value)) checkObject(value, schema, path, out);
}

function checkString(value: string, schema: JSONSchemaProps, path: string, error: (m: string) => void): void {
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    error(schema.minLength === 1 ? `${path} must not be empty` : `${path} must be at least ${schema.minLength} characters long`);
  } else if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    error(`${path} must be at most ${schema.maxLength} characters long, got ${value.length}`);
  } else if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
    const description = PATTERN_DESCRIPTIONS[schema.pattern];
    error(description ? `${path} must be ${description}, got ${JSON.stringify(value)}` : `${path} must match ${schema.pattern}`);
  }
}

function checkNumber(value: number, schema: JSONSchemaProps, path: string, error: (m: string) => void): void {
  if (schema.minimum !== undefined && value < schema.minimum) error(`${path} must be at least ${schema.minimum}, got ${value}`);
  else if (schema.maximum !== undefined && value > schema.maximum) error(`${path} must be at most ${schema.maximum}, got ${value}`);
}

function checkArray(value: unknown[], schema: JSONSchemaProps, path: string, out: ValidationResult): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    out.errors.push({ field: path, message: `${path} must have at most ${schema.maxItems} items, got ${value.length}` });
  }
  const items = schema.items;
  if (items) value.forEach((item, i) => check(item, items, `${path}[${i}]`, out));
  const duplicate = duplicateKey(value, schema);
  if (duplicate !== undefined) out.errors.push({ field: path, message: `${path} has a duplicate entry ${duplicate}` });
}

/** Set-type lists need unique items, map-type lists unique keys. */
function duplicateKey(value: unknown[], schema: JSONSchemaProps): string | undefined {
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== 'set' && listType !== 'map') return undefined;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const seen = new Set<string>();
  for (const item of value) {
    const key = listType === 'set' ? JSON.stringify(item) : JSON.stringify(keys.map((k) => (isPlainObject(item) ? item[k] : undefined)));
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
}

function checkObject(value: Record<string, unknown>, schema: JSONSchemaProps, path: string, out: ValidationResult): void {
  const properties = schema.properties ?? {};
  for (const key of schema.required ?? []) {
    if (value[key] == null) out.errors.push(required(childPath(path, key)));
  }
  for (const key of Object.keys(value).sort()) {
    const keyPath = childPath(path, key);
    const known = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (known) checkPresent(value[key], known, keyPath, out);
    else if (schema.additionalProperties) check(value[key], schema.additionalProperties, keyPath, out);
    else if (!schema['x-kubernetes-preserve-unknown-fields']) {
      out.warnings.push({ field: keyPath, message: `Unknown field '${keyPath}' is not part of the schema` });
    }
  }
}

/** The API server drops null values of non-nullable fields, so a null field counts as absent. */
function checkPresent(value: unknown, schema: JSONSchemaProps, path: string, out: ValidationResult): void {
  if (value == null) return;
  check(value, schema, path, out);
}

function required(path: string): Issue {
  return { field: path, message: `${path} is required` };
}
