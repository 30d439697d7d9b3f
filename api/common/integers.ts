// Integer fields: defaulted, optional or required, within bounds, and the min <= max rule of a replica
// range. One wording for every kind ("must be an integer from 1 to 65535, got ..."), the words the CRD
// schema's minimum and maximum stand for. Pure.

import { isCount, show, type Obj, type Report } from './checks.ts';

export interface IntegerBounds {
  min: number;
  max?: number;
}

/** Whether `value` is an integer within `bounds`; reported under `field` when not. */
export function checkInteger(value: unknown, field: string, report: Report, bounds: IntegerBounds): value is number {
  if (isCount(value, bounds.min) && (bounds.max === undefined || value <= bounds.max)) return true;
  const range = bounds.max === undefined ? `>= ${bounds.min}` : `from ${bounds.min} to ${bounds.max}`;
  report(field, `must be an integer ${range}, got ${show(value)}`);
  return false;
}

/** An integer in [min, max], or the default when absent (the default the CRD schema fills in). */
export function integer(parent: Obj, key: string, parentPath: string, report: Report, bounds: IntegerBounds & { fallback: number }): number {
  const value = parent[key];
  if (value == null) return bounds.fallback;
  return checkInteger(value, `${parentPath}.${key}`, report, bounds) ? value : bounds.fallback;
}

/** An integer in [min, max], or undefined when absent or wrong (which is reported). */
export function optionalInteger(parent: Obj, key: string, parentPath: string, report: Report, bounds: IntegerBounds): number | undefined {
  const value = parent[key];
  if (value == null) return undefined;
  return checkInteger(value, `${parentPath}.${key}`, report, bounds) ? value : undefined;
}

/** A required integer in [min, max]; undefined (and reported) when absent or wrong. */
export function requiredInteger(parent: Obj, key: string, parentPath: string, report: Report, bounds: IntegerBounds): number | undefined {
  if (parent[key] == null) {
    report(`${parentPath}.${key}`, 'required');
    return undefined;
  }
  return optionalInteger(parent, key, parentPath, report, bounds);
}

/**
 * The CEL rule of a replica range (minReplicas <= maxReplicas), reported on the range with the rule's
 * own message; checked on the values read, so a malformed bound (reported already) is its default.
 */
export function checkReplicaRange<T extends { minReplicas: number; maxReplicas: number }>(range: T, path: string, report: Report, message: string): T {
  if (range.minReplicas > range.maxReplicas) report(path, message);
  return range;
}
