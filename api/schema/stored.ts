// An object as the API server stores it under a schema: null fields dropped, absent ones with a default
// filled in (recursively, so a defaulted `{}` gets its own fields' defaults), unknown ones pruned. The
// CEL rules (./rules.ts) read this form, as the API server's do; it is also each kind's defaulting. Pure.
// Only own properties are read and written, so keys such as `__proto__` stay plain fields.

import { isObject, type Obj } from '../common/checks.ts';
import type { JSONSchemaProps } from '../crd/schema-types.ts';

export function stored(value: unknown, schema: JSONSchemaProps): unknown {
  return fill(value, schema, true);
}

/**
 * The schema's defaults only, for a mutating webhook's patch: every field of `value` is kept (unknown
 * ones and nulls too, which are the API server's to prune), a null or absent field with a default gets
 * it. Objects the schema declares are new; other values (a free-form subtree, say) are shared, not copied.
 */
export function withDefaults(value: unknown, schema: JSONSchemaProps): unknown {
  return fill(value, schema, false);
}

function fill(value: unknown, schema: JSONSchemaProps, prune: boolean): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((v) => fill(v, schema.items!, prune)) : value;
  if (!isObject(value) || schema['x-kubernetes-preserve-unknown-fields'] || schema.type !== 'object') return value;
  const properties = schema.properties ?? {};
  const known = (key: string) => Object.hasOwn(properties, key);
  const out: Obj = {};
  const put = (key: string, child: unknown) => Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
  for (const [key, child] of Object.entries(value)) {
    if (!prune || (child !== null && (known(key) || schema.additionalProperties || !schema.properties))) put(key, child);
  }
  for (const [key, child] of Object.entries(properties)) {
    if (out[key] == null && child.default !== undefined) put(key, structuredClone(child.default));
    if (out[key] != null) put(key, fill(out[key], child, prune));
  }
  if (schema.additionalProperties) for (const key of Object.keys(out)) if (!known(key)) put(key, fill(out[key], schema.additionalProperties, prune));
  return out;
}
