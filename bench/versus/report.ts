// The side-by-side table and the last line of the bench: `ratio ours/reference: ...`, ours ÷ reference
// (below 1: we are faster or cheaper). Ratios, not absolute figures, are what compare across runs on a
// noisy shared machine.
import { cpus } from 'node:os';
import { percentile } from '../measure.ts';
import type { RequestCounts } from './apiserver-requests.ts';
import { IDLE_SETTLE_MS, type SubjectResult } from './subject-run.ts';
import { fieldLossVerdict } from './field-loss.ts';

type Metric = { label: string; ours?: string; reference?: string; ratio?: number };

const MiB = (b: number | undefined) => (b === undefined ? undefined : `${Math.round(b / 1024 / 1024)}`);
const f1 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? undefined : v.toFixed(1));
const f0 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? undefined : `${Math.round(v)}`);
const withBeside = (main: string | undefined, beside: string | undefined) => (main === undefined ? undefined : beside === undefined ? main : `${main} (+ Temporal ${beside})`);
const ratioOf = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !(b > 0) || Number.isNaN(a) ? undefined : a / b);

interface Figures {
  startS?: number;
  singleExistsP50?: number;
  singleExistsP95?: number;
  singleCreatedP50?: number;
  singleCreatedP95?: number;
  singleRunningP50?: number;
  singleRunningP95?: number;
  burst: Map<number, { created: number; resourceCreated: number; running: number; cpuMs: number; besideCpuMs: number; requests: number }>;
  rssStart?: number;
  besideRssStart?: number;
  rssAfterBurst?: number;
  besideRssAfterBurst?: number;
  rssAfterDelete?: number;
  besideRssAfterDelete?: number;
  idleCpu?: number;
  besideIdleCpu?: number;
  idleRequests?: number;
  deleteS?: number;
  lastBurst?: number;
}

function figures(r: SubjectResult | undefined): Figures {
  const fig: Figures = { burst: new Map() };
  if (!r) return fig;
  fig.startS = r.startSeconds;
  if (r.single && r.single.applies.length > 0) {
    fig.singleExistsP50 = percentile(r.single.existsMs, 50);
    fig.singleExistsP95 = percentile(r.single.existsMs, 95);
    fig.singleCreatedP50 = percentile(r.single.resourceCreatedMs, 50);
    fig.singleCreatedP95 = percentile(r.single.resourceCreatedMs, 95);
    fig.singleRunningP50 = percentile(r.single.runningMs, 50);
    fig.singleRunningP95 = percentile(r.single.runningMs, 95);
  }
  for (const b of r.bursts) {
    fig.burst.set(b.size, {
      created: b.createdS,
      resourceCreated: b.resourceCreatedS,
      running: b.runningS,
      cpuMs: (b.cost.cpuSeconds / b.size) * 1000,
      besideCpuMs: (b.cost.besideCpuSeconds / b.size) * 1000,
      requests: b.cost.requests / b.size,
    });
  }
  const last = r.bursts.at(-1);
  // One delete per burst; the last burst's is the one compared.
  const lastDelete = last && r.deletes.length === r.bursts.length ? r.deletes.at(-1) : undefined;
  fig.lastBurst = last?.size;
  fig.rssStart = r.rssStartBytes;
  fig.besideRssStart = r.besideRssStartBytes;
  fig.rssAfterBurst = last?.rssBytes;
  fig.besideRssAfterBurst = last?.besideRssBytes;
  if (lastDelete) {
    fig.rssAfterDelete = lastDelete.rssBytes;
    fig.besideRssAfterDelete = lastDelete.besideRssBytes;
    fig.deleteS = lastDelete.seconds;
  }
  fig.idleCpu = r.idle?.cpuPerMinute;
  fig.besideIdleCpu = r.idle?.besideCpuPerMinute;
  fig.idleRequests = r.idle?.requestsPerMinute;
  return fig;
}

/** Requests per deployment of one burst by verb and resource, largest first. */
export function requestMix(byKind: RequestCounts, size: number, top = 10): string {
  return [...byKind.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `${(v / size).toFixed(1)} ${k}`)
    .join(', ');
}

export interface Report {
  lines: string[];
  ratioLine: string;
}

export function buildReport(ours: SubjectResult, reference: SubjectResult | undefined, opts: { bursts: readonly number[]; quick: boolean; referenceSkipped?: string }): Report {
  const o = figures(ours);
  const r = figures(reference);
  const hasBeside = ours.subject.beside.length > 0;
  const rows: Metric[] = [];
  const push = (label: string, ours: string | undefined, reference: string | undefined, ratio?: number) => rows.push({ label, ours, reference, ratio });
  const pair = (a: number | undefined, b: number | undefined, unit: string) => (a === undefined ? undefined : `${f0(a)} / ${f0(b)} ${unit}`);

  push('controller start → running, s', o.startS === undefined ? undefined : `${o.startS.toFixed(1)} s`, r.startS === undefined ? undefined : `${r.startS.toFixed(1)} s`, ratioOf(o.startS, r.startS));
  const n = ours.single?.applies.length ?? 0;
  push(`single apply → provider resource exists, p50 / p95 (${n} applies)`, pair(o.singleExistsP50, o.singleExistsP95, 'ms'), pair(r.singleExistsP50, r.singleExistsP95, 'ms'), ratioOf(o.singleExistsP50, r.singleExistsP50));
  push('single apply → ResourceCreated, p50 / p95', pair(o.singleCreatedP50, o.singleCreatedP95, 'ms'), pair(r.singleCreatedP50, r.singleCreatedP95, 'ms'), ratioOf(o.singleCreatedP50, r.singleCreatedP50));
  push('single apply → Running (ready reported at once), p50 / p95', pair(o.singleRunningP50, o.singleRunningP95, 'ms'), pair(r.singleRunningP50, r.singleRunningP95, 'ms'), ratioOf(o.singleRunningP50, r.singleRunningP50));
  for (const size of opts.bursts) {
    const a = o.burst.get(size);
    const b = r.burst.get(size);
    push(`burst ${size} → all provider resources created`, a && `${f1(a.created)} s`, b && `${f1(b.created)} s`, ratioOf(a?.created, b?.created));
    push(`burst ${size} → all ResourceCreated`, a && `${f1(a.resourceCreated)} s`, b && `${f1(b.resourceCreated)} s`, ratioOf(a?.resourceCreated, b?.resourceCreated));
    push(`burst ${size}, ready patches → all Running`, a && `${f1(a.running)} s`, b && `${f1(b.running)} s`, ratioOf(a?.running, b?.running));
    push(
      `burst ${size}, CPU per deployment (controller; ratio includes Temporal)`,
      a && withBeside(`${f0(a.cpuMs)} ms`, hasBeside ? `${f0(a.besideCpuMs)}` : undefined),
      b && `${f0(b.cpuMs)} ms`,
      ratioOf(a && a.cpuMs + a.besideCpuMs, b?.cpuMs),
    );
    push(`burst ${size}, API-server requests per deployment`, a && f1(a.requests), b && f1(b.requests), ratioOf(a?.requests, b?.requests));
  }
  const lb = o.lastBurst ?? opts.bursts.at(-1);
  push('RSS at start, MiB', withBeside(MiB(o.rssStart), hasBeside ? MiB(o.besideRssStart) : undefined), MiB(r.rssStart));
  push(`RSS after burst ${lb} (all Running), MiB`, withBeside(MiB(o.rssAfterBurst), hasBeside ? MiB(o.besideRssAfterBurst) : undefined), MiB(r.rssAfterBurst), ratioOf(o.rssAfterBurst, r.rssAfterBurst));
  push('RSS after deleting everything, MiB', withBeside(MiB(o.rssAfterDelete), hasBeside ? MiB(o.besideRssAfterDelete) : undefined), MiB(r.rssAfterDelete));
  const returned = (f: typeof o) => (f.rssAfterDelete !== undefined && f.rssStart ? `${((f.rssAfterDelete / f.rssStart - 1) * 100).toFixed(0)} % above start` : undefined);
  push('RSS after deleting everything, against start', returned(o), returned(r));
  push(`idle CPU per minute, ${lb} Running`, withBeside(o.idleCpu === undefined ? undefined : `${o.idleCpu.toFixed(2)} s`, hasBeside ? o.besideIdleCpu?.toFixed(2) : undefined), r.idleCpu === undefined ? undefined : `${r.idleCpu.toFixed(2)} s`, ratioOf(o.idleCpu, r.idleCpu));
  push(`idle API-server requests per minute, ${lb} Running`, f1(o.idleRequests), f1(r.idleRequests));
  push(`delete ${lb} → all gone`, o.deleteS === undefined ? undefined : `${f1(o.deleteS)} s`, r.deleteS === undefined ? undefined : `${f1(r.deleteS)} s`, ratioOf(o.deleteS, r.deleteS));
  push(`machine load average (1 min) while measured, ${cpus().length} cores`, ours.loadAverage?.toFixed(1), reference?.loadAverage?.toFixed(1));

  const refHeader = reference ? 'reference' : 'reference (skipped)';
  const w = Math.max(...rows.map((x) => x.label.length));
  const wo = Math.max(10, ...rows.map((x) => (x.ours ?? '-').length));
  const wr = Math.max(refHeader.length, ...rows.map((x) => (x.reference ?? '-').length));
  const lines = [`${'metric'.padEnd(w)}  ${'ours'.padEnd(wo)}  ${refHeader.padEnd(wr)}  ours/ref`];
  for (const x of rows) lines.push(`${x.label.padEnd(w)}  ${(x.ours ?? '-').padEnd(wo)}  ${(x.reference ?? '-').padEnd(wr)}  ${x.ratio === undefined ? '' : x.ratio.toFixed(2)}`);
  lines.push(
    `(ratio ours ÷ reference; CPU per deployment on our side counts the Temporal server too; requests exclude the bench's own applies, deletes and status patches and the API server's background; ${lb === undefined ? '' : `RSS, idle and delete from the burst of ${lb}; idle measured once both had been quiet and then ${IDLE_SETTLE_MS / 1000} s more; `}the other controller is not running while one is measured)`,
  );
  if (opts.referenceSkipped) lines.push(`reference skipped: ${opts.referenceSkipped}`);
  // A subject whose objects lost fields on write measured its own rewrite loop: said where the ratios are read.
  for (const result of reference ? [ours, reference] : [ours]) {
    const verdict = fieldLossVerdict(result.subject.label, result.fieldLoss);
    if (verdict) lines.push(verdict);
  }

  const ratio = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(2));
  const b100o = o.burst.get(100);
  const b100r = r.burst.get(100);
  const b1000o = o.burst.get(1000);
  const b1000r = r.burst.get(1000);
  const ratioLine =
    `ratio ours/reference: single-p50 ${ratio(ratioOf(o.singleExistsP50, r.singleExistsP50))}` +
    ` burst100-created ${ratio(ratioOf(b100o?.created, b100r?.created))} burst100-running ${ratio(ratioOf(b100o?.running, b100r?.running))}` +
    ` burst1000-created ${opts.quick ? 'n/a' : ratio(ratioOf(b1000o?.created, b1000r?.created))} burst1000-running ${opts.quick ? 'n/a' : ratio(ratioOf(b1000o?.running, b1000r?.running))}` +
    ` cpu-per-deployment ${ratio(ratioOf(b100o && b100o.cpuMs + b100o.besideCpuMs, b100r?.cpuMs))}` +
    ` requests-per-deployment ${ratio(ratioOf(b100o?.requests, b100r?.requests))}` +
    ` rss ${ratio(ratioOf(o.rssAfterBurst, r.rssAfterBurst))} idle-cpu ${ratio(ratioOf(o.idleCpu, r.idleCpu))} delete ${ratio(ratioOf(o.deleteS, r.deleteS))}` +
    ` start ${ratio(ratioOf(o.startS, r.startS))}`;
  return { lines, ratioLine };
}
