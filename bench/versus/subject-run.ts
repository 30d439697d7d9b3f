// Everything measured for one controller, on its own (the other controller is not running): start,
// single applies, its reconcile breakdown, the bursts, idle with everything Running, deleting all.
import type { KubeConfig } from '@kubernetes/client-node';
import type { RunningController } from './controller-processes.ts';
import { deleteAll, runBurst, type BurstResult, type DeleteResult } from './burst.ts';
import { sleep } from './concurrency.ts';
import { sampleLoadAverage } from './load-average.ts';
import { DeploymentClient } from './deployment-client.ts';
import type { DeploymentTracker } from './deployment-tracker.ts';
import { cost, quiesce, rss, snapshot, type Meter } from './process-window.ts';
import type { ReadinessDriver } from './readiness-driver.ts';
import { medianApply, runSingleApplies, type SingleApply, type SingleResults } from './single-applies.ts';
import type { Subject } from './subjects.ts';
import { fieldLossVerdict, type FieldLossSample } from './field-loss.ts';

export interface IdleResult {
  running: number;
  seconds: number;
  cpuPerMinute: number;
  besideCpuPerMinute: number;
  requestsPerMinute: number;
}

export interface SubjectResult {
  subject: Subject;
  processes: { name: string; pid: number }[];
  /** From starting its processes to their saying they run (ours: `kubeairunway controller running`; the peer: every process's `Starting workers`). */
  startSeconds?: number;
  /** Its provider resources sampled after the first burst: fields it wrote that were not stored. */
  fieldLoss?: FieldLossSample;
  rssStartBytes?: number;
  besideRssStartBytes?: number;
  single?: SingleResults;
  breakdown?: string[];
  bursts: BurstResult[];
  deletes: DeleteResult[];
  idle?: IdleResult;
  /** Mean 1-minute load average of the machine while this controller was measured. */
  loadAverage?: number;
  error?: string;
}

export interface SubjectRunOptions {
  kc: KubeConfig;
  tracker: DeploymentTracker;
  driver: ReadinessDriver;
  /** The meter without process ids; the subject's are added once its processes run. */
  meter: Omit<Meter, 'pids' | 'besidePids' | 'benchRequests'>;
  singles: number;
  bursts: readonly number[];
  idleSeconds: number;
  breakdown: (apply: SingleApply) => Promise<string[]>;
  /** Reads a few of the subject's provider resources as stored and compares them with what it wrote. */
  sampleFieldLoss: (namespace: string) => Promise<FieldLossSample>;
  log: (line: string) => void;
}

/** How long both controllers sit with everything Running before their idle cost is measured. */
export const IDLE_SETTLE_MS = 15_000;

/** A controller started and metered, before anything is applied. */
export interface MeteredController {
  controller: RunningController;
  meter: Meter;
  processes: { name: string; pid: number }[];
  startSeconds: number;
  rssStartBytes: number;
  besideRssStartBytes: number;
}

/**
 * Starts a subject's processes and puts them on the meter: their process ids (and those shown beside),
 * a wait until they are quiet (at most `quietMs`), their resident memory at start. The seam the bench's
 * plumbing test drives with stand-in executables. What it started is stopped again if metering fails.
 */
export async function startMetered(
  subject: Subject,
  base: SubjectRunOptions['meter'],
  benchRequests: () => number,
  log: (line: string) => void,
  quietMs = 20_000,
): Promise<MeteredController> {
  const t0 = Date.now();
  const controller = await subject.start();
  try {
    const processes = [...controller.processes.map((p) => ({ name: p.name, pid: p.pid })), ...subject.beside];
    const startSeconds = (Date.now() - t0) / 1000;
    log(`${subject.label}: running in ${startSeconds.toFixed(1)} s (${processes.map((p) => `${p.name} pid ${p.pid}`).join(', ')})`);
    const meter: Meter = { ...base, pids: controller.processes.map((p) => p.pid), besidePids: subject.beside.map((b) => b.pid), benchRequests };
    await quiesce(meter, quietMs);
    return { controller, meter, processes, startSeconds, rssStartBytes: rss(meter.pids), besideRssStartBytes: rss(meter.besidePids) };
  } catch (err) {
    await controller.stop();
    throw err;
  }
}

export async function runSubject(subject: Subject, o: SubjectRunOptions): Promise<SubjectResult> {
  const result: SubjectResult = { subject, processes: [], bursts: [], deletes: [] };
  o.log(`\n== ${subject.label}: starting the controller ...`);
  const load = sampleLoadAverage();
  let controller: RunningController | undefined;
  try {
    const client = new DeploymentClient(o.kc, subject);
    const started = await startMetered(subject, o.meter, () => client.requests + o.driver.patches, o.log);
    controller = started.controller;
    const meter = started.meter;
    result.processes = started.processes;
    result.startSeconds = started.startSeconds;
    result.rssStartBytes = started.rssStartBytes;
    result.besideRssStartBytes = started.besideRssStartBytes;
    const deps = { client, tracker: o.tracker, driver: o.driver, meter, log: o.log };

    o.log(`${subject.label}: ${o.singles} single applies (after one warm-up), each until Running`);
    await o.driver.release();
    result.single = await runSingleApplies(client, o.tracker, o.singles, o.log);
    const median = medianApply(result.single);
    if (median) result.breakdown = await o.breakdown(median).catch((err: Error) => [`reconcile breakdown unavailable: ${err.message}`]);
    await deleteAll([`single-0`, ...result.single.applies.map((a) => a.name)], deps);

    for (const [i, size] of o.bursts.entries()) {
      o.log(`${subject.label}: burst of ${size}`);
      const burst = await runBurst(size, deps);
      result.bursts.push(burst);
      if (i === 0) {
        result.fieldLoss = await o.sampleFieldLoss(subject.namespace);
        const verdict = fieldLossVerdict(subject.label, result.fieldLoss);
        if (verdict) o.log(verdict);
      }
      if (i === o.bursts.length - 1) {
        // Idle is the steady state: the burst's tail (last status writes, the garbage collector's
        // clean-up after it) settles first, the same wait for both controllers.
        await quiesce(meter, 20_000);
        await sleep(IDLE_SETTLE_MS);
        o.log(`${subject.label}: idle for ${o.idleSeconds} s with ${size} Running (from ${new Date().toISOString()})`);
        const before = await snapshot(meter);
        await sleep(o.idleSeconds * 1_000);
        const idle = cost(meter, before, await snapshot(meter));
        result.idle = {
          running: size,
          seconds: idle.seconds,
          cpuPerMinute: (idle.cpuSeconds / idle.seconds) * 60,
          besideCpuPerMinute: (idle.besideCpuSeconds / idle.seconds) * 60,
          requestsPerMinute: (idle.requests / idle.seconds) * 60,
        };
      }
      o.log(`${subject.label}: deleting ${size}`);
      result.deletes.push(await deleteAll(burst.names, deps));
    }
  } catch (err) {
    result.error = (err as Error).message;
    o.log(`${subject.label}: stopped early: ${result.error}`);
  } finally {
    result.loadAverage = load.stop();
    if (controller) {
      o.log(`${subject.label}: stopping the controller`);
      await controller.stop();
    }
  }
  return result;
}
