// JSON values as the schema interpreter (./check.ts) and the cluster-side schema check
// (kube/schema-check.ts) read them: the OpenAPI type test, the names of types in messages, and field
// paths. Pure (no imports).

/**
 * Whether `value` is of the OpenAPI `type` as the API server reads JSON: integers are whole numbers, no
 * NaN or Infinity.
 */
export function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      // A type this check does not know: the API server decides.
      return true;
  }
}

/** `an integer`, `a list`: the type as an error message names it. */
export function article(type: string): string {
  return { object: 'an object', array: 'a list', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'a boolean' }[type] ?? type;
}

/** Type of a JSON value as a user would name it, for "got ..." in messages. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/** Appends a key to a dotted path; keys that are not identifiers are quoted so the path stays readable. */
export function childPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}
