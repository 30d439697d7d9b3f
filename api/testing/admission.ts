// What the API server would do with a custom resource, evaluated offline for tests that hold a kind's
// CRD against its validator: the object stored (nulls dropped, defaults filled in, unknown fields
// pruned), then its name, the structural schema (types, int-or-string, enums, bounds, lengths, patterns,
// list-map keys, required keys) and the CEL rules on every node present. One copy for every kind's
// CRD test, so they all hold their validators to the same reading of the API server.

import { evaluate } from '@marcbachmann/cel-js';
import { MAX_OBJECT_NAME_LENGTH, OBJECT_NAME_PATTERN } from '../common/patterns.ts';
import type { CustomResourceDefinition, JSONSchemaProps } from '../crd/schema-types.ts';

type Json = Record<string, unknown>;
export type SchemaNode = JSONSchemaProps & { anyOf?: JSONSchemaProps[]; 'x-kubernetes-int-or-string'?: true };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);

/** The schema of the CRD's (single) version. */
export const rootSchemaOf = (crd: CustomResourceDefinition): SchemaNode => crd.spec.versions[0]!.schema.openAPIV3Schema;

function hasType(value: unknown, type: JSONSchemaProps['type']): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    default:
      return typeof value === type;
  }
}

/** Null object fields dropped, absent ones defaulted, unknown ones pruned, as the API server stores an object. */
export function stored(value: unknown, schema: SchemaNode): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((v) => stored(v, schema.items!)) : value;
  if (!isObject(value) || schema['x-kubernetes-preserve-unknown-fields'] || schema.type !== 'object') return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null) continue;
    if (schema.properties?.[key] || schema.additionalProperties || !schema.properties) out[key] = child;
  }
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    if (out[key] === undefined && child.default !== undefined) out[key] = structuredClone(child.default);
    if (out[key] !== undefined) out[key] = stored(out[key], child);
  }
  if (schema.additionalProperties) for (const key of Object.keys(out)) if (!schema.properties?.[key]) out[key] = stored(out[key], schema.additionalProperties);
  return out;
}

/** Structural schema violations of a stored value, as `<path>: <keyword>`. */
export function schemaErrors(value: unknown, schema: SchemaNode, path: string): string[] {
  if (!hasType(value, schema.type)) return [`${path}: type`];
  if (schema.anyOf && !schema.anyOf.some((branch) => hasType(value, branch.type))) return [`${path}: anyOf`];
  const errors: string[] = [];
  if (schema.enum && !schema.enum.includes(value as string)) errors.push(`${path}: enum`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: maximum`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${path}: minLength`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push(`${path}: maxLength`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) errors.push(`${path}: pattern`);
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => errors.push(...schemaErrors(item, schema.items!, `${path}[${i}]`)));
    const keys = schema['x-kubernetes-list-map-keys'];
    if (keys) {
      const ids = value.map((item) => JSON.stringify(keys.map((k) => (isObject(item) ? item[k] : undefined))));
      if (new Set(ids).size !== ids.length) errors.push(`${path}: duplicate`);
    }
  }
  if (isObject(value) && !schema['x-kubernetes-preserve-unknown-fields']) {
    for (const key of schema.required ?? []) if (value[key] == null) errors.push(`${path}.${key}: required`);
    for (const [key, child] of Object.entries(value)) {
      const childSchema = schema.properties?.[key] ?? schema.additionalProperties;
      // Unknown fields are pruned, not refused.
      if (childSchema) errors.push(...schemaErrors(child, childSchema, `${path}.${key}`));
    }
  }
  return errors;
}

/** Messages of the CEL rules that fail, on every node present of a stored value. */
export function celFailures(value: unknown, schema: SchemaNode): string[] {
  const failures = (schema['x-kubernetes-validations'] ?? []).filter((r) => evaluate(r.rule, { self: value }) !== true).map((r) => r.message);
  if (isObject(value)) {
    for (const [key, child] of Object.entries(schema.properties ?? {})) if (value[key] !== undefined) failures.push(...celFailures(value[key], child));
  }
  return failures;
}

/** The API server's own check of a custom resource's name: a DNS-1123 subdomain. */
function nameAccepted(object: Json): boolean {
  const name = isObject(object.metadata) ? object.metadata.name : undefined;
  return typeof name === 'string' && OBJECT_NAME.test(name) && name.length <= MAX_OBJECT_NAME_LENGTH;
}

/** Whether the API server would store `object`: its name, the schema, then (on a valid object) the CEL rules. */
export function admitted(object: Json, root: SchemaNode): boolean {
  if (!nameAccepted(object)) return false;
  const value = stored(object, root);
  if (schemaErrors(value, root, '').length > 0) return false;
  return celFailures(value, root).length === 0;
}
