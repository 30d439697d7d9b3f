// A burst: N ModelDeployments applied at once (at most 50 requests in flight, the same for both),
// timed until every provider resource exists; then the readiness driver reports them all ready and
// the bench times until every deployment is Running. And deleting a set, timed until all is gone.
import { forEachLimited, sleep } from './concurrency.ts';
import type { DeploymentClient } from './deployment-client.ts';
import type { DeploymentTracker } from './deployment-tracker.ts';
import { cost, quiesce, rss, snapshot, type Meter, type WindowCost } from './process-window.ts';
import type { ReadinessDriver } from './readiness-driver.ts';

const IN_FLIGHT = 50;

export interface BurstResult {
  size: number;
  names: string[];
  /** Burst start → every provider resource exists. */
  createdS: number;
  /** Burst start → every ResourceCreated condition true. */
  resourceCreatedS: number;
  /** Ready patches released → every deployment Running. */
  runningS: number;
  /** Burst start → quiet after all Running. */
  cost: WindowCost;
  rssBytes: number;
  besideRssBytes: number;
}

export interface DeleteResult {
  count: number;
  seconds: number;
  cost: WindowCost;
  rssBytes: number;
  besideRssBytes: number;
}

export async function runBurst(
  size: number,
  deps: { client: DeploymentClient; tracker: DeploymentTracker; driver: ReadinessDriver; meter: Meter; log: (line: string) => void },
): Promise<BurstResult> {
  const { client, tracker, driver, meter, log } = deps;
  const names = Array.from({ length: size }, (_, i) => `burst${size}-${i}`);
  driver.hold();
  const before = await snapshot(meter);
  const start = Date.now();
  await forEachLimited(names, IN_FLIGHT, async (name) => void (await client.apply(name)));
  log(`  burst ${size}: applied in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  await tracker.until(`all ${size} provider resources`, () => tracker.count(names, 'dgdSeenAt') === size, 120_000 + 1_000 * size);
  const created = tracker.lastOf(names, 'dgdSeenAt')!;
  log(`  burst ${size}: all provider resources after ${((created - start) / 1000).toFixed(1)} s`);
  await tracker.until(`all ${size} ResourceCreated`, () => tracker.count(names, 'resourceCreatedAt') === size, 120_000 + 1_000 * size);
  const resourceCreated = tracker.lastOf(names, 'resourceCreatedAt')!;
  const released = Date.now();
  await driver.release();
  await tracker.until(`all ${size} Running`, () => tracker.count(names, 'runningAt') === size, 60_000 + 500 * size);
  const running = tracker.lastOf(names, 'runningAt')!;
  log(`  burst ${size}: all Running ${((running - released) / 1000).toFixed(1)} s after the ready patches`);
  await quiesce(meter);
  const after = await snapshot(meter);
  return {
    size,
    names,
    createdS: (created - start) / 1000,
    resourceCreatedS: (resourceCreated - start) / 1000,
    runningS: (running - released) / 1000,
    cost: cost(meter, before, after),
    rssBytes: rss(meter.pids),
    besideRssBytes: rss(meter.besidePids),
  };
}

export async function deleteAll(names: readonly string[], deps: { client: DeploymentClient; tracker: DeploymentTracker; meter: Meter }): Promise<DeleteResult> {
  const { client, tracker, meter } = deps;
  const before = await snapshot(meter);
  const start = Date.now();
  await forEachLimited(names, IN_FLIGHT, (name) => client.delete(name));
  const gone = () => names.every((n) => {
    const m = tracker.byName.get(n);
    return m?.mdGoneAt !== undefined && (m.dgdSeenAt === undefined || m.dgdGoneAt !== undefined);
  });
  await tracker.until(`all ${names.length} deleted`, gone, 120_000 + 1_000 * names.length);
  const last = Math.max(tracker.lastOf(names, 'mdGoneAt') ?? 0, ...names.map((n) => tracker.byName.get(n)?.dgdGoneAt ?? 0));
  await quiesce(meter);
  const after = await snapshot(meter);
  // Memory is read later: a garbage collector returns pages to the OS lazily, in either runtime (V8's
  // memory reducer and Go's scavenger both wait for the process to go quiet).
  await sleep(30_000);
  return { count: names.length, seconds: (last - start) / 1000, cost: cost(meter, before, after), rssBytes: rss(meter.pids), besideRssBytes: rss(meter.besidePids) };
}
