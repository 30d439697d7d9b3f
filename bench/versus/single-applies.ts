// Sequential single applies: each waits for its provider resource, ResourceCreated and Running (the
// readiness driver reports ready at once here) before the next, so each one is a lone reconcile.
import type { DeploymentClient } from './deployment-client.ts';
import type { DeploymentTracker } from './deployment-tracker.ts';
import type { ApplyMilestones } from './reconcile-breakdown.ts';

export interface SingleApply extends ApplyMilestones {
  name: string;
  uid: string;
  runningAt?: number;
}

export interface SingleResults {
  applies: SingleApply[];
  /** Milliseconds from apply sent, one per apply. */
  existsMs: number[];
  resourceCreatedMs: number[];
  runningMs: number[];
}

export async function runSingleApplies(client: DeploymentClient, tracker: DeploymentTracker, count: number, log: (line: string) => void): Promise<SingleResults> {
  const applies: SingleApply[] = [];
  // One warm-up apply first, not counted: the first reconcile of a fresh process pays for lazy
  // loading and JIT warm-up in either language.
  for (let i = 0; i <= count; i++) {
    const name = `single-${i}`;
    const applySentAt = Date.now();
    const stored = await client.apply(name);
    const applyReturnedAt = Date.now();
    await tracker.until(`${name} Running`, () => tracker.byName.get(name)?.runningAt !== undefined && tracker.byName.get(name)?.dgdSeenAt !== undefined && tracker.byName.get(name)?.resourceCreatedAt !== undefined, 120_000);
    const m = tracker.byName.get(name)!;
    if (i > 0) applies.push({ name, uid: stored.metadata!.uid!, applySentAt, applyReturnedAt, mdSeenAt: m.seenAt, dgdSeenAt: m.dgdSeenAt, resourceCreatedAt: m.resourceCreatedAt, runningAt: m.runningAt });
    if (i % 5 === 0) log(`  single apply ${i}/${count}: provider resource after ${m.dgdSeenAt! - applySentAt} ms, ResourceCreated after ${m.resourceCreatedAt! - applySentAt} ms`);
  }
  return {
    applies,
    existsMs: applies.map((a) => a.dgdSeenAt! - a.applySentAt),
    resourceCreatedMs: applies.map((a) => a.resourceCreatedAt! - a.applySentAt),
    runningMs: applies.map((a) => a.runningAt! - a.applySentAt),
  };
}

/** The apply whose ResourceCreated time is the median: the one worth breaking down. */
export function medianApply(results: SingleResults): SingleApply | undefined {
  const sorted = [...results.applies].sort((a, b) => a.resourceCreatedAt! - a.applySentAt - (b.resourceCreatedAt! - b.applySentAt));
  return sorted[Math.floor(sorted.length / 2)];
}
