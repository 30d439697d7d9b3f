// Rendered objects are compared byte for byte: a controller upgrade that reorders keys would make the
// server-side apply look like a change and could restart model pods. Everything a provider renders goes
// through `canonicalize` so object keys are sorted and no `undefined` survives, whatever order the
// user's spec (or our own code) produced them in. Arrays keep their order: for args, env and
// tolerations the order is meaningful and comes from the user or from a fixed rule.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export function canonicalize(value: unknown): JsonValue | undefined {
  // Iterative (an explicit stack), so no nesting depth exhausts the call stack: a spec may hold
  // thousands of levels, and rendering and selection must still not throw.
  const root = shell(value);
  const stack: Array<[unknown, JsonValue]> = [];
  if (root !== null && typeof root === 'object') stack.push([value, root]);
  while (stack.length > 0) {
    const [from, to] = stack.pop() as [unknown, JsonValue[] | { [key: string]: JsonValue }];
    if (Array.isArray(to)) {
      (from as unknown[]).forEach((item, i) => {
        const child = shell(item) ?? null;
        to[i] = child;
        if (child !== null && typeof child === 'object') stack.push([item, child]);
      });
      continue;
    }
    for (const key of Object.keys(from as object).sort()) {
      const item = (from as Record<string, unknown>)[key];
      const child = shell(item);
      if (child === undefined) continue;
      setOwn(to, key, child);
      if (child !== null && typeof child === 'object') stack.push([item, child]);
    }
  }
  return root;
}

/** The canonical form of a scalar, or an empty container to be filled for a list or an object. */
function shell(value: unknown): JsonValue | undefined {
  if (value === null) return null;
  if (Array.isArray(value)) return new Array<JsonValue>(value.length).fill(null);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'object':
      return {};
    default:
      // undefined, functions, symbols and bigints have no JSON form.
      return undefined;
  }
}

/** JSON text with sorted keys: equal inputs give identical bytes. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(canonicalize(value) ?? null);
}

/** A copy of a string map with its entries in key order, or undefined when it is empty. */
export function sortedMap(map: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (!map) return undefined;
  const keys = Object.keys(map).sort();
  if (keys.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const key of keys) setOwn(out, key, String(map[key]));
  return out;
}

/** `target[key] = value`, except that a key such as `__proto__` stays an own property (and in the JSON). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
