// Where the milliseconds of one apply go, from `kubectl apply` to ResourceCreated: the bench's own
// clock for what a user sees (apply, the watch events), the workflow's history for what happens
// between (start/signal, each workflow task, each activity or local activity). All clocks are this
// machine's. The watcher's own receipt of the event is not visible from outside its process; the
// bench's watch of the same collection stands in for it (same API server, same watch cache).
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import type { Client } from '@temporalio/client';
import { readWorkflowRuns } from '../../cli/operator/history-reader.ts';
import { workflowIdFor, type ObjectRef } from '../../contract/object-ref.ts';
import { historySpans, type Span } from './history-spans.ts';

export interface ApplyMilestones {
  applySentAt: number;
  applyReturnedAt: number;
  mdSeenAt?: number;
  dgdSeenAt?: number;
  resourceCreatedAt?: number;
}

const pad = (s: string, n: number) => s.padStart(n);
const ms = (v: number | undefined) => (v === undefined ? '' : `${Math.round(v)}`);

/** Milliseconds covered by at least one span, within [from, to]. */
function covered(spans: readonly Span[], from: number, to: number): number {
  const intervals = spans
    .filter((s) => s.endMs > s.startMs)
    .map((s) => [Math.max(from, s.startMs), Math.min(to, s.endMs)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let sum = 0;
  let end = -Infinity;
  for (const [a, b] of intervals) {
    if (b <= end) continue;
    sum += b - Math.max(a, end);
    end = b;
  }
  return sum;
}

export function formatBreakdown(title: string, m: ApplyMilestones, history: readonly Span[]): string[] {
  const until = m.resourceCreatedAt ?? m.dgdSeenAt ?? Math.max(m.applyReturnedAt, ...history.map((s) => s.endMs));
  const benchSpans: Span[] = [
    { kind: 'instant', label: 'apply sent (server-side apply of the ModelDeployment)', startMs: m.applySentAt, endMs: m.applySentAt },
    { kind: 'instant', label: 'apply returned', startMs: m.applyReturnedAt, endMs: m.applyReturnedAt },
    ...(m.mdSeenAt !== undefined ? [{ kind: 'instant' as const, label: "bench's watch saw the ModelDeployment (the watcher's watch gets the same event)", startMs: m.mdSeenAt, endMs: m.mdSeenAt }] : []),
    ...(m.dgdSeenAt !== undefined ? [{ kind: 'instant' as const, label: "DynamoGraphDeployment seen by the bench's watch", startMs: m.dgdSeenAt, endMs: m.dgdSeenAt }] : []),
    ...(m.resourceCreatedAt !== undefined ? [{ kind: 'instant' as const, label: "ResourceCreated=True seen by the bench's watch", startMs: m.resourceCreatedAt, endMs: m.resourceCreatedAt }] : []),
  ];
  const steps = history.filter((s) => s.startMs <= until);
  const rows = [...benchSpans, ...steps].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const lines = [title, `  ${pad('at ms', 7)} ${pad('gap', 5)} ${pad('wait', 5)} ${pad('run', 5)}  step`];
  // Every instant seen so far (starts, pickups, ends): a row's gap is the time since the latest of
  // them, so a pause between two local activities inside one workflow task shows too.
  const points: number[] = [m.applySentAt];
  for (const r of rows) {
    const since = Math.max(...points.filter((p) => p <= r.startMs));
    const gap = r.startMs - since;
    lines.push(`  ${pad(ms(r.startMs - m.applySentAt), 7)} ${pad(gap > 0 ? ms(gap) : '', 5)} ${pad(ms(r.waitMs), 5)} ${pad(ms(r.runMs), 5)}  ${r.label}`);
    points.push(r.startMs, r.endMs, ...(r.waitMs !== undefined ? [r.startMs + r.waitMs] : []));
  }
  const total = until - m.applySentAt;
  const sum = (kind: Span['kind'], field: 'waitMs' | 'runMs') => steps.filter((s) => s.kind === kind).reduce((a, s) => a + (s[field] ?? 0), 0);
  const betweenSteps = total - covered(steps, m.applySentAt, until);
  lines.push(
    `  total ${Math.round(total)} ms to ${m.resourceCreatedAt !== undefined ? 'ResourceCreated' : 'the last step'}: workflow tasks ${Math.round(sum('workflow-task', 'runMs'))} ms running` +
      ` (of which local activities ${Math.round(sum('local-activity', 'runMs'))} ms) + ${Math.round(sum('workflow-task', 'waitMs'))} ms waiting for a worker;` +
      ` activities ${Math.round(sum('activity', 'runMs'))} ms running + ${Math.round(sum('activity', 'waitMs'))} ms waiting on their task queues;` +
      ` ${Math.round(betweenSteps)} ms in no step (apply, watch delivery, signal-with-start, server round trips between steps)`,
  );
  lines.push('  (gap: ms since the latest earlier start, pickup or end; wait: scheduled → picked up by a worker; run: picked up → done)');
  return lines;
}

/** The breakdown of one of our deployments, read from its workflow's history (every run up to ResourceCreated). */
export async function ourReconcileBreakdown(client: Client, ref: ObjectRef, m: ApplyMilestones): Promise<string[]> {
  const workflowId = workflowIdFor(MODEL_DEPLOYMENT_KIND, ref);
  const { runs } = await readWorkflowRuns(client, workflowId, 50);
  const spans = historySpans(runs.flatMap((r) => r.events));
  return formatBreakdown(`reconcile breakdown of one apply (ours, ${ref.namespace}/${ref.name}, the median single apply; workflow ${workflowId}):`, m, spans);
}
