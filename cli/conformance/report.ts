// The conformance report: what was checked against which installed CRD, what the API server made of
// each object, and how it is shown (a table for people, JSON or YAML for scripts). Pure.

import { formatStructured, type OperatorOutput } from '../operator/output.ts';
import { formatTable, type Column } from '../../present/table.ts';
import type { FieldLoss } from './compare.ts';

/**
 * accepted: the dry-run create stored every field as sent. refused: the API server said no (its message).
 * pruned: accepted, but fields we sent did not come back (or came back changed). error: the check itself
 * failed (no permission, API server unreachable), so nothing is known about the object.
 */
export type Outcome = 'accepted' | 'refused' | 'pruned' | 'error';

export interface ObjectResult {
  /** `kaito`, `dynamo`, `kuberay` or `keda`. */
  target: string;
  apiVersion: string;
  kind: string;
  name: string;
  /** What it was rendered from: `golden dynamo/example-1-llama-8b`, `examples/gpu-vllm-dynamo.yaml`. */
  source: string;
  outcome: Outcome;
  /** refused, error: the API server's message. */
  message?: string;
  /** pruned: the fields that did not come back as sent. */
  losses?: FieldLoss[];
}

export interface TargetReport {
  target: string;
  /** The CRD's name, `<plural>.<group>`. */
  resource: string;
  /**
   * checked: at least one served version we render was dry-run. skipped: the CRD is not installed (not a
   * failure: that provider is simply not in use). unsupported: installed, but no served version is one we
   * render (a failure: the controller could not create this provider's resource on this cluster).
   */
  status: 'checked' | 'skipped' | 'unsupported';
  /** Versions the cluster serves for the kind. */
  served: string[];
  /** `group/version`s dry-run, in the order checked. */
  checked: string[];
  reason?: string;
}

export interface Summary {
  checked: number;
  accepted: number;
  refused: number;
  pruned: number;
  errors: number;
  unsupported: number;
}

export interface ConformanceReport {
  server: string;
  namespace: string;
  targets: TargetReport[];
  results: ObjectResult[];
  /** Inputs that were not rendered for a target, and why (e.g. a manifest the provider cannot serve). */
  notes: string[];
  summary: Summary;
}

export function summarize(targets: readonly TargetReport[], results: readonly ObjectResult[]): Summary {
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  return {
    checked: results.length,
    accepted: count('accepted'),
    refused: count('refused'),
    pruned: count('pruned'),
    errors: count('error'),
    unsupported: targets.filter((t) => t.status === 'unsupported').length,
  };
}

/** 0 when every object was accepted as sent; 1 when anything was refused, pruned, not checkable, or no version is renderable. */
export function exitCodeOf(summary: Summary): number {
  return summary.refused + summary.pruned + summary.errors + summary.unsupported > 0 ? 1 : 0;
}

/** How many paths a table cell lists before `(+N more)`. */
const PATHS_IN_CELL = 2;

export function describeLosses(losses: readonly FieldLoss[], limit = Infinity): string {
  const shown = losses.slice(0, limit).map((l) => (l.kind === 'pruned' ? `${l.path} pruned` : `${l.path} changed`));
  const more = losses.length - shown.length;
  return more > 0 ? `${shown.join(', ')} (+${more} more)` : shown.join(', ');
}

function detail(r: ObjectResult, limit: number): string {
  if (r.outcome === 'pruned') return describeLosses(r.losses ?? [], limit);
  return r.message ?? '';
}

const objectColumns: Column<ObjectResult>[] = [
  { header: 'RESULT', value: (r) => r.outcome },
  { header: 'TARGET', value: (r) => r.target },
  { header: 'API VERSION', value: (r) => r.apiVersion },
  { header: 'OBJECT', value: (r) => `${r.kind}/${r.name}` },
  { header: 'SOURCE', value: (r) => r.source },
  { header: 'DETAIL', value: (r) => detail(r, PATHS_IN_CELL), maxWidth: 90, empty: '' },
];

function targetResult(t: TargetReport, results: readonly ObjectResult[]): string {
  if (t.status !== 'checked') return `${t.status}: ${t.reason ?? ''}`;
  const mine = results.filter((r) => r.target === t.target);
  const parts = (['accepted', 'refused', 'pruned', 'error'] as const).map((o) => [o, mine.filter((r) => r.outcome === o).length] as const).filter(([, n]) => n > 0);
  return parts.length > 0 ? parts.map(([o, n]) => `${n} ${o}`).join(', ') : 'no objects rendered';
}

function targetColumns(results: readonly ObjectResult[]): Column<TargetReport>[] {
  return [
    { header: 'TARGET', value: (t) => t.target },
    { header: 'CRD', value: (t) => t.resource },
    { header: 'SERVED', value: (t) => t.served.join(', '), empty: '-' },
    { header: 'CHECKED', value: (t) => t.checked.map((v) => v.slice(v.lastIndexOf('/') + 1)).join(', '), empty: '-' },
    { header: 'RESULT', value: (t) => targetResult(t, results) },
  ];
}

/** The report as people read it: objects, then one line per target, then every problem in full, then the totals. */
export function formatReportTable(report: ConformanceReport): string {
  const out: string[] = [`Server-side dry-run (fieldValidation=Strict) against ${report.server}, namespace ${report.namespace}\n\n`];
  if (report.results.length > 0) out.push(formatTable(objectColumns, report.results), '\n');
  out.push(formatTable(targetColumns(report.results), report.targets));
  const problems = report.results.filter((r) => r.outcome !== 'accepted');
  if (problems.length > 0) {
    out.push('\nProblems:\n');
    for (const r of problems) {
      out.push(`  ${r.outcome}: ${r.kind}/${r.name} (${r.apiVersion}, from ${r.source})\n`);
      if (r.outcome === 'pruned') for (const l of r.losses ?? []) out.push(`    ${lossLine(l)}\n`);
      else out.push(`    ${r.message ?? ''}\n`);
    }
  }
  for (const line of prunedOutsideRenderedVersion(report)) out.push(line);
  if (report.notes.length > 0) {
    out.push('\nNot rendered:\n');
    for (const note of report.notes) out.push(`  ${note}\n`);
  }
  const s = report.summary;
  out.push(
    `\n${s.checked} object${s.checked === 1 ? '' : 's'} checked: ${s.accepted} accepted, ${s.refused} refused, ${s.pruned} pruned` +
      `${s.errors > 0 ? `, ${s.errors} not checkable` : ''}${s.unsupported > 0 ? `; ${s.unsupported} CRD${s.unsupported === 1 ? '' : 's'} serve no version we render` : ''}\n`,
  );
  return out.join('');
}

/**
 * Pruned objects sent in a version the controller does not render on this cluster (it renders the first
 * of `checked`, the newest served version it supports): what they mean and what to do, one paragraph per
 * version. The usual cause is a CRD that stores another version with no conversion webhook to carry the
 * fields across (the dev stack's Dynamo stand-in, or a real cluster whose operator's webhook is down).
 */
function prunedOutsideRenderedVersion(report: ConformanceReport): string[] {
  const lines: string[] = [];
  for (const t of report.targets) {
    const rendered = t.checked[0];
    const versions = [...new Set(report.results.filter((r) => r.target === t.target && r.outcome === 'pruned' && r.apiVersion !== rendered).map((r) => r.apiVersion))];
    for (const version of versions) {
      lines.push(
        `\nPruned in ${version}: the controller renders ${rendered} on this cluster, so its deployments are not affected. ` +
          `${t.resource} converts ${version} only through the provider's conversion webhook, which did not convert these objects: ` +
          `anything that sends ${version} (an older controller, a hand-written manifest) loses those fields. ` +
          `Nothing to do for kubeairunway; for such clients, run the provider operator's conversion webhook (the dev stack's stand-in CRDs have none).\n`,
      );
    }
  }
  return lines;
}

function lossLine(l: FieldLoss): string {
  const sent = JSON.stringify(l.sent);
  const shortSent = sent.length > 80 ? `${sent.slice(0, 79)}…` : sent;
  return l.kind === 'pruned' ? `${l.path}: sent ${shortSent}, not returned` : `${l.path}: sent ${shortSent}, returned ${JSON.stringify(l.returned)}`;
}

export function formatReport(report: ConformanceReport, output: OperatorOutput): string {
  return output === 'table' ? formatReportTable(report) : formatStructured(report, output);
}
