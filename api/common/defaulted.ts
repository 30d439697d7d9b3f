// Fields the CRD schema gives a default: absent means the default, as the API server fills it in before
// anything reads the object, so the offline check answers for the object the API server would store.
// The default itself is checked like a given value (it always passes). Pure.

import { checkEnum, checkString, type Obj, type Report, type StringRules } from './checks.ts';

/** A string, or `fallback` when absent; the fallback also when it breaks `rules` (which is reported). */
export function defaultedString(parent: Obj, key: string, parentPath: string, report: Report, rules: StringRules, fallback: string): string {
  const value = parent[key] ?? fallback;
  return checkString(value, `${parentPath}.${key}`, report, rules) ? (value as string) : fallback;
}

/** One of `allowed`, or `fallback` when absent; the fallback also when it is not one of them (which is reported). */
export function defaultedEnum<T extends string>(parent: Obj, key: string, parentPath: string, report: Report, allowed: readonly T[], fallback: T): T {
  const value = parent[key] ?? fallback;
  return checkEnum(value, allowed, `${parentPath}.${key}`, report) ? value : fallback;
}
