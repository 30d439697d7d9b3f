// CPU, memory and API-server requests of one controller over a window of the bench, and waiting until
// a controller has gone quiet (so trailing work after the last milestone is charged too).
import { delta, readRequestCounts, total, type RequestCounts } from './apiserver-requests.ts';
import { sleep } from './concurrency.ts';
import { sampleProcesses } from './process-stats.ts';

export interface Meter {
  /** Controller process ids. */
  pids: number[];
  /** Processes reported beside (Temporal server). */
  besidePids: number[];
  apiServerUrl: string;
  token: string;
  /** Requests the API server serves with no controller running (its own leases, the bench's watches), per second. */
  backgroundPerSecond: number;
  /** The bench's own requests so far (applies, deletes, status patches). */
  benchRequests(): number;
}

export interface Snapshot {
  at: number;
  cpu: number;
  besideCpu: number;
  counts: RequestCounts;
  bench: number;
}

export interface WindowCost {
  seconds: number;
  cpuSeconds: number;
  besideCpuSeconds: number;
  /** Requests charged to the controller: the counter's delta minus the bench's own and the background. */
  requests: number;
  byKind: RequestCounts;
}

export async function snapshot(m: Meter): Promise<Snapshot> {
  return {
    at: Date.now(),
    cpu: sampleProcesses(m.pids).cpuSeconds,
    besideCpu: sampleProcesses(m.besidePids).cpuSeconds,
    counts: await readRequestCounts(m.apiServerUrl, m.token),
    bench: m.benchRequests(),
  };
}

export function cost(m: Meter, from: Snapshot, to: Snapshot): WindowCost {
  const seconds = (to.at - from.at) / 1000;
  const byKind = delta(to.counts, from.counts);
  // The bench's scrapes of /metrics are not counted: the counter covers resource requests only.
  const requests = total(byKind) - (to.bench - from.bench) - m.backgroundPerSecond * seconds;
  return { seconds, cpuSeconds: to.cpu - from.cpu, besideCpuSeconds: to.besideCpu - from.besideCpu, requests: Math.max(0, requests), byKind };
}

/** Waits until the controller (and what runs beside it) used under 5 % of a core for a whole second, at most `maxMs`. */
export async function quiesce(m: Meter, maxMs = 10_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = sampleProcesses([...m.pids, ...m.besidePids]).cpuSeconds;
  while (Date.now() < deadline) {
    await sleep(1_000);
    const now = sampleProcesses([...m.pids, ...m.besidePids]).cpuSeconds;
    if (now - last < 0.05) return;
    last = now;
  }
}

export function rss(pids: readonly number[]): number {
  return sampleProcesses(pids).rssBytes;
}
