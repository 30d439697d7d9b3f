/** Runs `fn` repeatedly for about `ms` after a warm-up and reports operations per second. */
export function opsPerSecond(fn: () => unknown, ms = 1_000): number {
  for (let i = 0; i < 200; i++) fn();
  let ops = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() - start < budget) {
    for (let i = 0; i < 50; i++) fn();
    ops += 50;
  }
  return ops / (Number(process.hrtime.bigint() - start) / 1e9);
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
