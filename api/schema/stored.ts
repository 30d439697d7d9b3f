// An object as the API server stores it under a schema: null fields dropped, absent ones with a default
// filled in (recursively, so a defaulted `{}` gets its own fields' defaults), unknown ones pruned. The
// CEL rules (./rules.ts) read this form, as the API server's do; it is also each kind's defaulting. Pure.
// Only own properties are read and written, so keys such as `__proto__` stay plain fields.

import { isObject, type Obj } from '../common/checks.ts';
import type { JSONSchemaProps } from '../crd/schema-types.ts';

export function stored(value: unknown, schema: JSONSchemaProps): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((v) => stored(v, schema.items!)) : value;
  if (!isObject(value) || schema['x-kubernetes-preserve-unknown-fields'] || schema.type !== 'object') return value;
  const properties = schema.properties ?? {};
  const known = (key: string) => Object.hasOwn(properties, key);
  const out: Obj = {};
  const put = (key: string, child: unknown) => Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
  for (const [key, child] of Object.entries(value)) {
    if (child === null) continue;
    if (known(key) || schema.additionalProperties || !schema.properties) put(key, child);
  }
  for (const [key, child] of Object.entries(properties)) {
    if (out[key] === undefined && child.default !== undefined) put(key, structuredClone(child.default));
    if (out[key] !== undefined) put(key, stored(out[key], child));
  }
  if (schema.additionalProperties) for (const key of Object.keys(out)) if (!known(key)) put(key, stored(out[key], schema.additionalProperties));
  return out;
}
