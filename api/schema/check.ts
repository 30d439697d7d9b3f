// The one interpreter of a kind's schema (./typed.ts): types, required keys, enums, bounds, lengths,
// patterns, maps, lists with their sizes and keys, defaults, and the CRD's own CEL rules (./rules.ts).
// Every kind's validator runs its spec through it; only rules across fields that no schema can state
// are hand code. It reports every problem as a phrase about its field ("must be an integer, got
// string", "is required"; docs/validation.md) through `report`, a CEL rule's own message through
// `rule`, an undeclared field through `unknown`, and returns a clean copy: defaults filled in, unknown
// fields dropped and null properties taken as absent, as the API server stores the object.
//
// Never throws; recursion follows the schema, so it ends whatever the value holds. Pure: runs in
// activities and the offline CLI alike, so `kar validate` answers as admission does.

import type { Obj, Report } from '../common/checks.ts';
import type { JSONSchemaProps } from '../crd/schema-types.ts';
import { article, childPath, hasType, jsonTypeName } from './json-types.ts';
import { failedRules } from './rules.ts';
import { refinementOf, wordsOf } from './typed.ts';

/** Where findings other than a field's own problems go: a CEL rule's message (a sentence of its own), an undeclared field. */
export interface MoreFindings {
  /** A failed CEL rule, reported on the rule's field; `report` when not given. */
  rule?: Report;
  /** A field the schema does not declare (the API server prunes it); ignored when not given. */
  unknown?: (field: string) => void;
}

interface Findings {
  report: Report;
  rule: Report;
  unknown: (field: string) => void;
}

const patterns = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (!compiled) patterns.set(pattern, (compiled = new RegExp(pattern)));
  return compiled;
}

const own = (parent: Obj, key: string): unknown => (Object.hasOwn(parent, key) ? parent[key] : undefined);

/** Sets `key` as an own property, whatever its name (`__proto__` included). */
function put(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A present (non-null) value against its schema, then the node's hand-written refinement; undefined when it is wrong (which is reported). */
export function checkValue(schema: JSONSchemaProps, value: unknown, field: string, report: Report, more: MoreFindings = {}): unknown {
  return checkPresent(schema, value, field, { report, rule: more.rule ?? report, unknown: more.unknown ?? (() => {}) });
}

function checkPresent(schema: JSONSchemaProps, value: unknown, field: string, to: Findings): unknown {
  const checked = checkNode(schema, value, field, to);
  if (checked !== undefined) refinementOf(schema)?.(checked, field, to.report);
  return checked;
}

/** The property `key` of `parent`: its default when absent, "is required" when it must be there. */
function checkProperty(schema: JSONSchemaProps, parent: Obj, key: string, field: string, to: Findings, required: boolean): unknown {
  let value = own(parent, key);
  if (value == null) {
    if (schema.default === undefined) {
      if (required) to.report(field, 'is required');
      return undefined;
    }
    value = structuredClone(schema.default);
  } else if (required && value === '' && schema.type === 'string' && schema.minLength === undefined) {
    to.report(field, 'is required');
    return undefined;
  }
  return checkPresent(schema, value, field, to);
}

function checkNode(schema: JSONSchemaProps, value: unknown, field: string, to: Findings): unknown {
  const words = wordsOf(schema);
  const fail = (problem: string): undefined => void to.report(field, problem);
  if (schema['x-kubernetes-int-or-string']) {
    const fits = typeof value === 'string' ? schema.pattern === undefined || regex(schema.pattern).test(value) : hasType(value, 'integer') && (value as number) >= (schema.minimum ?? -Infinity);
    return fits ? value : fail(`${words.problem ?? 'must be an integer or a string'}, got ${JSON.stringify(value)}`);
  }
  if (schema.type && !hasType(value, schema.type)) return fail(`${words.notThis ?? `must be ${article(schema.type)}`}, got ${jsonTypeName(value)}`);
  if (schema.enum && !schema.enum.includes(value as string)) return fail(`must be one of ${schema.enum.join(', ')}, got ${JSON.stringify(value)}`);
  if (typeof value === 'string') return checkString(schema, value, fail);
  if (typeof value === 'number') return checkNumber(schema, value, fail);
  if (Array.isArray(value)) return checkList(schema, value, field, to);
  if (schema.type !== 'object' || typeof value !== 'object' || value === null) return value;
  const obj = value as Obj;
  if (schema.additionalProperties) return checkMap(schema.additionalProperties, obj, field, to);
  if (schema['x-kubernetes-preserve-unknown-fields']) return schema.properties ? checkObject(schema, obj, field, to, true) : value;
  return checkObject(schema, obj, field, to, false);
}

/** One problem per string: its length first, then its pattern. */
function checkString(schema: JSONSchemaProps, value: string, fail: (problem: string) => undefined): string | undefined {
  const { minLength, maxLength, pattern } = schema;
  if (minLength !== undefined && value.length < minLength) return fail(minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters long`);
  if (maxLength !== undefined && value.length > maxLength) return fail(`must be at most ${maxLength} characters long, got ${value.length}`);
  if (pattern !== undefined && !regex(pattern).test(value)) {
    const words = wordsOf(schema);
    if (words.problem !== undefined) return fail(`${words.problem}, got ${JSON.stringify(value)}`);
    return fail(words.what !== undefined ? `must be ${words.what}, got ${JSON.stringify(value)}` : `must match ${pattern}`);
  }
  return value;
}

function checkNumber(schema: JSONSchemaProps, value: number, fail: (problem: string) => undefined): number | undefined {
  if (schema.minimum !== undefined && value < schema.minimum) return fail(`must be at least ${schema.minimum}, got ${value}`);
  if (schema.maximum !== undefined && value > schema.maximum) return fail(`must be at most ${schema.maximum}, got ${value}`);
  return value;
}

/**
 * The known properties in schema order, each field it does not declare where it sorts among them (in
 * key order throughout when the schema lists its properties so), then the node's CEL rules on what the
 * API server would store. `open`: a node that keeps undeclared fields as given.
 */
function checkObject(schema: JSONSchemaProps, value: Obj, field: string, to: Findings, open: boolean): Obj {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const failed = new Set<string>();
  const noting = (report: Report): Report => (at, message) => (failed.add(at), report(at, message));
  const inner: Findings = { report: noting(to.report), rule: noting(to.rule), unknown: to.unknown };
  const out: Obj = {};
  const undeclared = Object.keys(value)
    .filter((key) => !Object.hasOwn(properties, key))
    .sort();
  let next = 0;
  const undeclaredBefore = (key?: string): void => {
    for (; next < undeclared.length && (key === undefined || undeclared[next]! < key); next++) {
      const name = undeclared[next]!;
      if (open) put(out, name, value[name]);
      else to.unknown(childPath(field, name));
    }
  };
  for (const [key, child] of Object.entries(properties)) {
    undeclaredBefore(key);
    const checked = checkProperty(child, value, key, childPath(field, key), inner, required.includes(key));
    if (checked !== undefined) put(out, key, checked);
  }
  undeclaredBefore();
  // A phrase (words.rulePhrases) goes after its path, as a keyword's problem does; a sentence stands alone.
  const ruleReport = wordsOf(schema).rulePhrases ? to.report : to.rule;
  for (const rule of failedRules(schema, value, (path) => failed.has(`${field}${path}`))) ruleReport(rule.fieldPath ? `${field}${rule.fieldPath}` : field, rule.message);
  return out;
}

/** Entries in sorted key order, so the copy does not depend on the manifest's order. */
function checkMap(values: JSONSchemaProps, value: Obj, field: string, to: Findings): Obj {
  const out: Obj = {};
  for (const key of Object.keys(value).sort()) {
    const checked = checkPresent(values, value[key], childPath(field, key), to);
    if (checked !== undefined) put(out, key, checked);
  }
  return out;
}

/** Its size, every item, then unique items (a set) or unique keys (a list-map): the first duplicate is reported on the list. */
function checkList(schema: JSONSchemaProps, value: unknown[], field: string, to: Findings): unknown[] {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) to.report(field, `must have at most ${schema.maxItems} items, got ${value.length}`);
  const items = schema.items;
  const out = items ? value.map((item, i) => checkPresent(items, item, `${field}[${i}]`, to)) : value;
  const duplicate = firstDuplicate(value, schema);
  if (duplicate !== undefined) to.report(field, `has a duplicate entry ${duplicate}`);
  return out;
}

/** A key as JSON; a value JSON cannot hold (a BigInt, from no manifest but from a caller's object) by its type, so the interpreter never throws. */
function keyText(key: unknown): string {
  try {
    return JSON.stringify(key);
  } catch {
    return `(${jsonTypeName(key)})`;
  }
}

/** The key (as JSON) of the first item that repeats an earlier one, in a set or a list-map. */
function firstDuplicate(value: unknown[], schema: JSONSchemaProps): string | undefined {
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== 'set' && listType !== 'map') return undefined;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const seen = new Set<string>();
  for (const item of value) {
    const key = keyText(listType === 'set' ? item : keys.map((k) => (hasType(item, 'object') ? own(item as Obj, k) : undefined)));
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
}
