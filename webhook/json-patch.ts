// RFC 6902 JSON Patch between two JSON documents: what the mutating webhook returns so the API server
// applies exactly the defaults, and nothing the user wrote is rewritten.

import { jsonEqual } from '../api/json-equal.ts';
import { isPlainObject } from '../api/overrides.ts';

export type PatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

/** RFC 6901: "~" and "/" inside a key are escaped, in that order. */
export function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Operations turning `before` into `after`, rooted at `path` (a JSON pointer; "" is the whole
 * document). Objects are compared key by key so a patch touches only what changed; arrays are
 * replaced whole, since their positions are not identities.
 */
export function diff(before: unknown, after: unknown, path = ''): PatchOperation[] {
  if (jsonEqual(before, after)) return [];
  if (!isPlainObject(before) || !isPlainObject(after)) {
    if (before === undefined) return [{ op: 'add', path, value: after }];
    if (after === undefined) return [{ op: 'remove', path }];
    return [{ op: 'replace', path, value: after }];
  }
  const ops: PatchOperation[] = [];
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) ops.push({ op: 'remove', path: `${path}/${pointerSegment(key)}` });
  }
  for (const key of Object.keys(after)) {
    const childPath = `${path}/${pointerSegment(key)}`;
    if (!Object.hasOwn(before, key)) ops.push({ op: 'add', path: childPath, value: after[key] });
    else ops.push(...diff(before[key], after[key], childPath));
  }
  return ops;
}
