// Temporal's duration strings ('5m', '30s') as milliseconds, without importing a library into workflow code.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** '500ms', '30s', '5m', '1h', '2d' (one unit) in milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : undefined;
}

export function toMs(duration: string | number): number {
  if (typeof duration === 'number') return duration;
  const ms = parseDuration(duration);
  if (ms === undefined) throw new TypeError(`invalid duration '${duration}' (use e.g. 500ms, 30s, 5m, 1h)`);
  return ms;
}

/** Exponential backoff: base, 2×base, 4×base, … capped. */
export function backoffMs(failures: number, base: string, max: string): number {
  return Math.min(toMs(base) * 2 ** Math.max(0, failures - 1), toMs(max));
}
