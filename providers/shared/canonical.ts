// Rendered objects are compared byte for byte: a controller upgrade that reorders keys would make the
// server-side apply look like a change and could restart model pods. Everything a provider renders goes
// through `canonicalize` so object keys are sorted and no `undefined` survives, whatever order the
// user's spec (or our own code) produced them in. Arrays keep their order: for args, env and
// tolerations the order is meaningful and comes from the user or from a fixed rule.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export function canonicalize(value: unknown): JsonValue | undefined {
  if (value === null) return null;
  if (Array.isArray(value)) {
    return value.map((item) => canonicalize(item) ?? null);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'object': {
      const out: Record<string, JsonValue> = {};
      for (const key of Object.keys(value as object).sort()) {
        const child = canonicalize((value as Record<string, unknown>)[key]);
        if (child !== undefined) out[key] = child;
      }
      return out;
    }
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
  for (const key of keys) out[key] = String(map[key]);
  return out;
}
