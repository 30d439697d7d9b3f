// The duration strings of a KybernateWorkload (suspend.idleTimeout, activator.queueTimeout) in
// milliseconds, for the workflow's timers. Pure (no imports but the pattern the CRD checks them with).

import { DURATION_PATTERN } from './patterns.ts';

const DURATION = new RegExp(DURATION_PATTERN);
const PART = /([0-9]+)(ms|s|m|h)/g;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** "1h30m" → 5400000; undefined for anything the CRD would refuse (no unit, fractions, zero, spaces). */
export function parseDuration(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNIT_MS[unit!]!;
  return total;
}
