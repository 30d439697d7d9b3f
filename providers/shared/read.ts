// Safe reading of upstream objects. Upstream status is written by another operator and may have any
// shape (older CRD versions, partial writes, hand edits), so status mapping reads it only through
// these helpers, which never throw.

import { isPlainObject, isQuantity } from '../../api/overrides.ts';

export type Json = Record<string, unknown>;

export function field(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Non-negative integer count, accepting numeric strings (some operators write "2"). */
export function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A Kubernetes quantity as text ("16Gi", "500m"; a number such as 16 as "16"), or undefined when it is not one. */
export function quantity(value: unknown): string | undefined {
  return isQuantity(value) ? String(value) : undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function record(value: unknown): Json {
  return isPlainObject(value) ? value : {};
}

/** Entries of a map in key order, so messages built from them are stable. */
export function sortedEntries(value: unknown): Array<[string, unknown]> {
  return Object.entries(record(value)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export interface UpstreamCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** status.conditions as a clean list; malformed entries are skipped. */
export function conditions(upstream: unknown): UpstreamCondition[] {
  const out: UpstreamCondition[] = [];
  for (const item of list(field(upstream, 'status', 'conditions'))) {
    const type = str(field(item, 'type'));
    const status = str(field(item, 'status'));
    if (type === undefined || status === undefined) continue;
    out.push({ type, status, reason: nonEmpty(field(item, 'reason')), message: nonEmpty(field(item, 'message')) });
  }
  return out;
}

export function findCondition(all: readonly UpstreamCondition[], type: string): UpstreamCondition | undefined {
  return all.find((c) => c.type === type);
}

export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 ? value : undefined;
}
