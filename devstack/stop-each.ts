/** Runs each step in order whatever the ones before did; the first failure is thrown once all have run. */
export async function stopEach(steps: readonly (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) await Promise.resolve().then(step).catch((err: unknown) => failures.push(err));
  if (failures.length > 0) throw failures[0];
}
