// How `kubeairunway history` prints: a header naming the object, its workflow and the Temporal UI
// pages, then one line per timeline entry with a marker where a new run begins.

import { formatDuration } from '../../present/durations.ts';
import { formatTable, type Column } from '../../present/table.ts';
import type { TimelineEntry } from './timeline.ts';

export interface HistoryReport {
  /** The object's kind, e.g. `ModelDeployment`. */
  kind: string;
  /** The object (a ModelDeployment's name for it, kept for every kind). */
  deployment: { namespace: string; name: string; uid: string | null; exists: boolean };
  workflowId: string;
  status: string;
  runs: { runId: string; events: number }[];
  olderRunsOmitted: boolean;
  /** Temporal UI pages: the latest run, every run of this workflow, every workflow of this namespace/name (each incarnation). */
  ui: { run: string; allRuns: string; byName: string };
  timeline: TimelineEntry[];
}

/** `2025-01-02 15:04:05Z`: seconds are enough to read a timeline; the date matters across days. */
export function shortTime(iso: string): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z` : '';
}

function outcomeText(e: TimelineEntry): string {
  if (e.attempts && e.attempts > 1) return `${e.outcome} (attempt ${e.attempts})`;
  return e.outcome;
}

const COLUMNS: Column<TimelineEntry>[] = [
  { header: 'TIME', value: (e) => shortTime(e.time) },
  { header: 'RUN', value: (e) => e.run },
  { header: 'STEP', value: (e) => e.step },
  { header: 'DURATION', value: (e) => (e.durationMs === null ? null : formatDuration(e.durationMs)), empty: '-' },
  { header: 'OUTCOME', value: outcomeText },
  { header: 'DETAIL', value: (e) => [e.error, e.detail].filter(Boolean).join(' — ') || null, maxWidth: 120, empty: '-' },
];

export function historyText(report: HistoryReport): string {
  const d = report.deployment;
  const runs = report.runs.length;
  const lines = [
    `${report.kind} ${d.namespace}/${d.name}${d.uid ? ` (uid ${d.uid})` : ''}${d.exists ? '' : ' — deleted'}`,
    `Workflow ${report.workflowId}: ${report.status.toLowerCase().replace(/_/g, ' ')}, ${runs} run${runs === 1 ? '' : 's'} shown${report.olderRunsOmitted ? ' (older runs omitted: raise --runs)' : ''}`,
    `Temporal UI: ${report.ui.run}`,
    `All runs:    ${report.ui.allRuns}`,
    `By name:     ${report.ui.byName}`,
    '',
  ];
  const header = `${lines.join('\n')}\n`;
  if (report.timeline.length === 0) return `${header}No steps recorded yet.\n`;
  return header + formatTable(COLUMNS, report.timeline);
}
