// Field checks shared by the three Kybernate validators. Each reports a problem through `report` and
// returns what it could read, so one pass collects every problem of an object. Pure (no imports).

export type Obj = Record<string, unknown>;
/** Records one problem under the path of the offending field, e.g. "spec.storage.image". */
export type Report = (field: string, message: string) => void;

export interface KybernateIssue {
  field: string;
  message: string;
}

export interface StringRules {
  pattern?: RegExp;
  /** How the pattern reads in a message, e.g. "a DNS-1123 label". */
  what?: string;
  minLength?: number;
  maxLength?: number;
}

export function checkString(value: unknown, field: string, report: Report, rules: StringRules): boolean {
  const fail = (message: string) => (report(field, message), false);
  if (typeof value !== 'string') return fail(`must be a string, got ${typeName(value)}`);
  if (rules.minLength !== undefined && value.length < rules.minLength) return fail(rules.minLength === 1 ? 'must not be empty' : `must have at least ${rules.minLength} characters`);
  if (rules.maxLength !== undefined && value.length > rules.maxLength) return fail(`must have at most ${rules.maxLength} characters, got ${value.length}`);
  if (rules.pattern && !rules.pattern.test(value)) return fail(`must be ${rules.what ?? `a string matching ${rules.pattern.source}`}, got ${show(value)}`);
  return true;
}

/** A required, non-empty string checked against `rules`; undefined (and reported) when absent or wrong. */
export function requiredString(parent: Obj, key: string, parentPath: string, report: Report, rules: StringRules): string | undefined {
  const value = parent[key];
  const field = `${parentPath}.${key}`;
  if (value == null || value === '') {
    report(field, 'required');
    return undefined;
  }
  return checkString(value, field, report, { ...rules, minLength: 1 }) ? (value as string) : undefined;
}

/** An optional string checked against `rules` (null counts as absent: the API server drops null fields). */
export function optionalString(parent: Obj, key: string, parentPath: string, report: Report, rules: StringRules = {}): string | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  return checkString(value, `${parentPath}.${key}`, report, rules) ? (value as string) : undefined;
}

export function checkEnum<T extends string>(value: unknown, allowed: readonly T[], field: string, report: Report): value is T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return true;
  report(field, `must be one of ${allowed.join(', ')}, got ${show(value)}`);
  return false;
}

/** An integer in [min, max], or the default when absent. */
export function integer(parent: Obj, key: string, parentPath: string, report: Report, bounds: { min: number; max?: number; fallback: number }): number {
  const value = parent[key];
  if (value == null) return bounds.fallback;
  if (isCount(value, bounds.min) && (bounds.max === undefined || value <= bounds.max)) return value;
  const range = bounds.max === undefined ? `>= ${bounds.min}` : `from ${bounds.min} to ${bounds.max}`;
  report(`${parentPath}.${key}`, `must be an integer ${range}, got ${show(value)}`);
  return bounds.fallback;
}

/** A boolean, or the default when absent. */
export function boolean(parent: Obj, key: string, parentPath: string, report: Report, fallback: boolean): boolean {
  const value = parent[key];
  if (value == null) return fallback;
  if (typeof value === 'boolean') return value;
  report(`${parentPath}.${key}`, `must be a boolean, got ${typeName(value)}`);
  return fallback;
}

/** The object under `key`; undefined when absent, and reported when not an object. */
export function optionalObject(parent: Obj, key: string, parentPath: string, report: Report): Obj | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  if (isObject(value)) return value;
  report(`${parentPath}.${key}`, `must be an object, got ${typeName(value)}`);
  return undefined;
}

/** The object without its undefined entries, so an absent optional field stays absent (and out of rendered output). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isCount(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

/** A value as it would appear in the manifest, for messages. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The issues as one line, for status messages. */
export function joinIssues(errors: readonly KybernateIssue[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ');
}
