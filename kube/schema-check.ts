// Checks an object against a CRD version's openAPIV3Schema the way the API server's structural schema
// handling treats it before any admission: a field the schema does not declare (server-side apply
// refuses it as "field not declared in schema", a strict create or update refuses it as an unknown
// field), a value of the wrong type, a value outside an enum, a required field left out. Pure: the
// schema comes from the CRD as the cluster stores it (read it however you like), nothing is fetched.
//
// Not checked here (the API server still has the last word, and its refusal is classified as such in
// kube/errors.ts): formats, patterns, bounds, list uniqueness, CEL rules (x-kubernetes-validations).
// Recursion follows the value, never the schema alone, so it ends whatever either holds.

import { article, hasType } from '../api/schema/json-types.ts';

/** The parts of apiextensions.k8s.io/v1 JSONSchemaProps this check reads; anything else is ignored. */
export interface OpenApiSchema {
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

export type SchemaProblemKind = 'undeclared' | 'type' | 'enum' | 'required';

export interface SchemaProblem {
  kind: SchemaProblemKind;
  /** Where, from the object's root: `spec.services.Frontend.router-mode`, `spec.components[0].name`. */
  path: string;
  /** One sentence naming the field, e.g. `spec.services.Frontend.router-mode: field not declared in schema`. */
  message: string;
}

export interface SchemaCheckOptions {
  /** Stop after this many problems (default 20): a badly wrong object cannot produce an unbounded list. */
  maxProblems?: number;
}

/**
 * The fields of ObjectMeta a client may send. A CRD's schema may not describe `metadata` beyond
 * name/generateName, so the API server checks it as ObjectMeta; so does this check, by name only.
 */
const OBJECT_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

/** Fields every resource has whatever its schema says: at the root and in an embedded resource. */
const RESOURCE_FIELDS = ['apiVersion', 'kind', 'metadata'];

/**
 * Problems of `value` against `schema`, the openAPIV3Schema of one CRD version (the root of a custom
 * resource: apiVersion, kind and metadata are implicit). Empty when the schema declares everything
 * the object holds in the types it holds them.
 */
export function checkAgainstSchema(value: unknown, schema: OpenApiSchema, options: SchemaCheckOptions = {}): SchemaProblem[] {
  const checker = new Checker(options.maxProblems ?? 20);
  checker.resource(value, schema, '');
  return checker.problems;
}

/** The openAPIV3Schema of `version` in a CRD object as the API server returns it; undefined when it has none. */
export function schemaOfVersion(crd: unknown, version: string): OpenApiSchema | undefined {
  const versions = (crd as { spec?: { versions?: unknown } } | undefined)?.spec?.versions;
  if (!Array.isArray(versions)) return undefined;
  const entry = versions.find((v) => (v as { name?: unknown })?.name === version) as { schema?: { openAPIV3Schema?: unknown } } | undefined;
  const schema = entry?.schema?.openAPIV3Schema;
  return isPlainObject(schema) ? (schema as OpenApiSchema) : undefined;
}

/** The problems as one line for a condition or event: the first few, then how many more. */
export function describeProblems(problems: readonly SchemaProblem[], shown = 3): string {
  const head = problems.slice(0, shown).map((p) => p.message);
  const more = problems.length - head.length;
  return more > 0 ? `${head.join('; ')} (and ${more} more)` : head.join('; ');
}

class Checker {
  readonly problems: SchemaProblem[] = [];

  constructor(private readonly max: number) {}

  private full(): boolean {
    return this.problems.length >= this.max;
  }

  private add(kind: SchemaProblemKind, path: string, what: string): void {
    if (this.full()) return;
    const at = path || '<root>';
    this.problems.push({ kind, path: at, message: `${at}: ${what}` });
  }

  /** A whole resource (the root, or an embedded one): apiVersion/kind strings, metadata as ObjectMeta. */
  resource(value: unknown, schema: OpenApiSchema, path: string): void {
    if (!isPlainObject(value)) {
      this.add('type', path, `expected an object, got ${typeName(value)}`);
      return;
    }
    for (const key of ['apiVersion', 'kind']) {
      if (value[key] !== undefined && value[key] !== null && typeof value[key] !== 'string') this.add('type', join(path, key), `expected a string, got ${typeName(value[key])}`);
    }
    if (value.metadata !== undefined && value.metadata !== null) this.objectMeta(value.metadata, join(path, 'metadata'));
    this.object(value, schema, path, RESOURCE_FIELDS);
  }

  private objectMeta(value: unknown, path: string): void {
    if (!isPlainObject(value)) {
      this.add('type', path, `expected an object, got ${typeName(value)}`);
      return;
    }
    for (const key of Object.keys(value)) {
      if (!OBJECT_META_FIELDS.has(key)) this.add('undeclared', join(path, key), 'field not declared in schema');
    }
    for (const key of ['labels', 'annotations']) {
      const map = value[key];
      if (map === undefined || map === null) continue;
      if (!isPlainObject(map)) this.add('type', join(path, key), `expected an object, got ${typeName(map)}`);
      else for (const [k, v] of Object.entries(map)) if (typeof v !== 'string') this.add('type', join(join(path, key), k), `expected a string, got ${typeName(v)}`);
    }
  }

  private value(value: unknown, schema: OpenApiSchema, path: string): void {
    if (this.full()) return;
    // The API server drops a null of a non-nullable field rather than refusing it; either way it is no problem.
    if (value === null) return;
    if (schema['x-kubernetes-embedded-resource']) {
      this.resource(value, schema, path);
      return;
    }
    if (schema['x-kubernetes-int-or-string']) {
      if (!(typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))) this.add('type', path, `expected an integer or a string, got ${typeName(value)}`);
      else this.enumCheck(value, schema, path);
      return;
    }
    if (schema.type && !hasType(value, schema.type)) {
      this.add('type', path, `expected ${article(schema.type)}, got ${typeName(value)}`);
      return;
    }
    if (!this.enumCheck(value, schema, path)) return;
    if (Array.isArray(value)) {
      const items = schema.items;
      if (items) value.forEach((item, i) => this.value(item, items, `${path}[${i}]`));
      else if (!schema['x-kubernetes-preserve-unknown-fields'] && value.length > 0 && schema.type === 'array') this.add('undeclared', `${path}[0]`, 'list items not declared in schema');
    } else if (isPlainObject(value)) {
      // No type but preserve-unknown-fields: any value at all; an object still has its declared properties checked.
      this.object(value, schema, path, []);
    }
  }

  private enumCheck(value: unknown, schema: OpenApiSchema, path: string): boolean {
    if (!Array.isArray(schema.enum) || schema.enum.some((allowed) => sameJson(allowed, value))) return true;
    this.add('enum', path, `unsupported value ${JSON.stringify(value)}: supported values: ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    return false;
  }

  private object(value: Record<string, unknown>, schema: OpenApiSchema, path: string, implicit: readonly string[]): void {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    for (const key of Array.isArray(schema.required) ? schema.required : []) {
      if (value[key] === undefined || value[key] === null) this.add('required', join(path, key), 'required value missing');
    }
    const additional = schema.additionalProperties;
    for (const key of Object.keys(value)) {
      if (this.full()) return;
      const keyPath = join(path, key);
      if (Object.hasOwn(properties, key)) {
        // At a resource's root `metadata` is ObjectMeta (checked by `objectMeta`), whatever the schema lists.
        if (!(implicit.includes(key) && key === 'metadata')) this.value(value[key], properties[key]!, keyPath);
      } else if (implicit.includes(key)) {
        continue;
      } else if (isPlainObject(additional)) {
        this.value(value[key], additional as OpenApiSchema, keyPath);
      } else if (additional === true || schema['x-kubernetes-preserve-unknown-fields']) {
        continue;
      } else {
        this.add('undeclared', keyPath, 'field not declared in schema');
      }
    }
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** `spec.services.Frontend.router-mode`; a key that would read ambiguously (dots, brackets, spaces) in brackets. */
function join(path: string, key: string): string {
  const part = /^[A-Za-z0-9_-]+$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (!path || part.startsWith('[')) return `${path}${part}`;
  return `${path}.${part}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
