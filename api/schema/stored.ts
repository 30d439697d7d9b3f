// An object as the API server stores it under a schema: null fields dropped, absent ones with a default
// filled in (recursively, so a defaulted `{}` gets its own fields' defaults), unknown ones pruned. The
// CEL rules (./rules.ts) read this form, as the API server's do; it is also each kind's defaulting. Pure.

import { isObject, type Obj } from '../common/checks.ts';
import type { JSONSchemaProps } from '../crd/schema-types.ts';

export function stored(value: unknown, schema: JSONSchemaProps): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((v) => stored(v, schema.items!)) : value;
  if (!isObject(value) || schema['x-kubernetes-preserve-unknown-fields'] || schema.type !== 'object') return value;
  const out: Obj = {};
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
