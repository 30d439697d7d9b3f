// The one interpreter of a kind's schema (./typed.ts): types, required keys, enums, bounds, lengths,
// patterns, maps, lists with their keys, defaults, and the CRD's own CEL rules (./rules.ts), in the
// words of the validators (docs/validation.md). It reports every problem through `report` and returns a
// clean copy: defaults filled in, unknown fields dropped and nulls taken as absent, as the API server
// stores the object. Every kind's validator runs its spec through it; only rules across fields that no
// schema can state are hand code (the kind's `crossField`).
//
// Pure: runs in activities and the offline CLI alike, so `kar validate` answers as admission does.

import { isCount, isObject, show, typeName, MAX_COUNT, type Obj, type Report } from '../common/checks.ts';
import type { JSONSchemaProps } from '../crd/schema-types.ts';
import { failedRules } from './rules.ts';
import { refinementOf, wordsOf } from './typed.ts';

const patterns = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (!compiled) patterns.set(pattern, (compiled = new RegExp(pattern)));
  return compiled;
}

/** The property `key` of `parent`: its default when absent, "required" when it must be there. */
export function checkProperty(schema: JSONSchemaProps, parent: Obj, key: string, parentPath: string, report: Report, required: boolean): unknown {
  const field = `${parentPath}.${key}`;
  let value = parent[key];
  if (value == null) {
    if (schema.default === undefined) {
      if (required) report(field, 'required');
      return undefined;
    }
    value = structuredClone(schema.default);
  } else if (required && value === '' && schema.type === 'string') {
    report(field, 'required');
    return undefined;
  }
  return checkValue(schema, value, field, report);
}

/** A present (non-null) value against its schema, then the node's hand-written refinement; undefined when it is wrong (which is reported). */
export function checkValue(schema: JSONSchemaProps, value: unknown, field: string, report: Report): unknown {
  const checked = checkNode(schema, value, field, report);
  if (checked !== undefined) refinementOf(schema)?.(checked, field, report);
  return checked;
}

function checkNode(schema: JSONSchemaProps, value: unknown, field: string, report: Report): unknown {
  const words = wordsOf(schema);
  const fail = (problem: string): undefined => void report(field, `${problem}, got ${show(value)}`);
  const wrongType = (expected: string): undefined => void report(field, `${words.notThis ?? expected}, got ${typeName(value)}`);
  if (schema['x-kubernetes-int-or-string']) {
    const fits = typeof value === 'string' ? schema.pattern === undefined || regex(schema.pattern).test(value) : isCount(value, schema.minimum ?? 0);
    return fits ? value : fail(words.problem ?? 'must be an integer or a string');
  }
  switch (schema.type) {
    case 'string':
      if (schema.enum) return typeof value === 'string' && schema.enum.includes(value) ? value : fail(`must be one of ${schema.enum.join(', ')}`);
      return checkString(schema, value, field, report);
    case 'integer': {
      const min = schema.minimum ?? -MAX_COUNT;
      const max = schema.maximum === MAX_COUNT ? undefined : schema.maximum;
      if (isCount(value, min) && (max === undefined || value <= max)) return value;
      return fail(`must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}`);
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : wrongType('must be a boolean');
    case 'array':
      return Array.isArray(value) ? checkList(schema, value, field, report) : wrongType('must be a list');
    case 'object':
      if (!isObject(value)) return wrongType(schema.additionalProperties ? 'must be a map' : 'must be an object');
      if (schema['x-kubernetes-preserve-unknown-fields']) return value;
      return schema.additionalProperties ? checkMap(schema.additionalProperties, value, field, report) : checkObject(schema, value, field, report);
    default:
      return value;
  }
}

function checkString(schema: JSONSchemaProps, value: unknown, field: string, report: Report): string | undefined {
  const fail = (problem: string): undefined => void report(field, problem);
  if (typeof value !== 'string') return fail(`must be a string, got ${typeName(value)}`);
  const { minLength, maxLength, pattern } = schema;
  if (minLength !== undefined && value.length < minLength) return fail(minLength === 1 ? 'must not be empty' : `must have at least ${minLength} characters`);
  if (maxLength !== undefined && value.length > maxLength) return fail(`must have at most ${maxLength} characters, got ${value.length}`);
  if (pattern !== undefined && !regex(pattern).test(value)) {
    const words = wordsOf(schema);
    return fail(`${words.problem ?? `must be ${words.what ?? `a string matching ${pattern}`}`}, got ${show(value)}`);
  }
  return value;
}

/** The known properties in schema order, then the node's CEL rules on what the API server would store. */
function checkObject(schema: JSONSchemaProps, value: Obj, field: string, report: Report): Obj {
  const out: Obj = {};
  const required = schema.required ?? [];
  const failed = new Set<string>();
  const noting: Report = (at, message) => (failed.add(at), report(at, message));
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const checked = checkProperty(child, value, key, field, noting, required.includes(key));
    if (checked !== undefined) out[key] = checked;
  }
  for (const rule of failedRules(schema, value, (path) => failed.has(`${field}${path}`))) report(rule.fieldPath ? `${field}${rule.fieldPath}` : field, rule.message);
  return out;
}

/** Entries in sorted key order, so the copy does not depend on the manifest's order; null entries are absent. */
function checkMap(values: JSONSchemaProps, value: Obj, field: string, report: Report): Obj {
  const out: Obj = {};
  for (const key of Object.keys(value).sort()) {
    if (value[key] == null) continue;
    const checked = checkValue(values, value[key], `${field}.${key}`, report);
    if (checked !== undefined) out[key] = checked;
  }
  return out;
}

/** Every item, and unique keys in a list-map (`<key> ...` is reported on the later item). */
function checkList(schema: JSONSchemaProps, value: unknown[], field: string, report: Report): unknown[] {
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const seen = keys.map(() => new Set<unknown>());
  return value.map((item, i) => {
    const at = `${field}[${i}]`;
    const checked = schema.items ? checkValue(schema.items, item, at, report) : item;
    if (isObject(checked)) {
      keys.forEach((key, k) => {
        const id = checked[key];
        if (id === undefined) return;
        if (seen[k]!.has(id)) report(`${at}.${key}`, `duplicate ${key} ${show(id)}`);
        seen[k]!.add(id);
      });
    }
    return checked;
  });
}
