/** Runs `fn` over `items` with at most `limit` in flight: a burst of 1,000 requests at once would measure the client's sockets, not the controllers. */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(lanes);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
