import type { Condition } from '../../api/types.ts';

/** The part of a deployment's status one field manager writes with server-side apply. */
export interface OwnedStatus {
  conditions: readonly Condition[];
  [field: string]: unknown;
}

/**
 * Whether applying `desired` would change nothing: every field it names (a field named with `undefined`
 * must be absent) already has exactly that value, and no condition it no longer sets is left over from
 * an earlier write of its own (SSA would remove that one). Fields in `shared` are objects another
 * manager writes into too: there, only the subfields `desired` sets count. Conditions of
 * `othersConditionTypes` belong to another manager and are ignored. Writing only what changed keeps an
 * idle or re-observed deployment from costing API-server writes.
 */
export function statusUnchanged(
  live: Record<string, unknown> | undefined,
  desired: OwnedStatus,
  others: { conditionTypes: readonly string[]; shared?: readonly string[] },
): boolean {
  const { conditions, ...fields } = desired;
  for (const [key, value] of Object.entries(fields)) {
    const shared = others.shared?.includes(key) && value !== null && typeof value === 'object';
    const same = shared
      ? Object.entries(value).every(([k, v]) => equal((live?.[key] as Record<string, unknown> | undefined)?.[k], v))
      : equal(live?.[key], value);
    if (!same) return false;
  }
  const mine = ((live?.conditions ?? []) as Condition[]).filter((c) => !others.conditionTypes.includes(c.type));
  return mine.length === conditions.length && conditions.every((d) => mine.some((c) => equal(c, d)));
}

/** Deep equality of JSON values; an `undefined` field counts as absent. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => equal(x, (b as unknown[])[i]));
  const keys = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined).map(([k]) => k);
  const ka = keys(a);
  return ka.length === keys(b).length && ka.every((k) => equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
