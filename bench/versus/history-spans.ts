// A workflow history as timed spans: each workflow task (waiting for a worker, then running), each
// activity (waiting on its task queue, then running), each local activity (from its marker), and the
// instants that start a pass (workflow start, signals, updates, continue-as-new). Pure.
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { timestampMs, type HistoryEvent } from '../../cli/operator/timeline.ts';
import { readLocalActivityMarker } from './local-activity-marker.ts';

export type SpanKind = 'instant' | 'workflow-task' | 'activity' | 'local-activity';

export interface Span {
  kind: SpanKind;
  label: string;
  /** Epoch ms: scheduled (tasks, activities), or the instant. */
  startMs: number;
  /** Scheduled → picked up by a worker, when the history says. */
  waitMs?: number;
  /** Picked up → done. */
  runMs?: number;
  endMs: number;
}

type Long = { toString(): string } | number | string | null | undefined;
const id = (v: Long) => String(v ?? '');

function firstPayload(payloads: { payloads?: Payload[] | null } | null | undefined): unknown {
  const first = payloads?.payloads?.[0];
  try {
    return first ? defaultPayloadConverter.fromPayload(first) : undefined;
  } catch {
    return undefined;
  }
}

export function historySpans(events: readonly HistoryEvent[]): Span[] {
  const spans: Span[] = [];
  const time = new Map<string, number>();
  const activities = new Map<string, { label: string; scheduled: number; started?: number }>();
  /** WorkflowTaskCompleted event id → its task's start time, and the workflow clock its local activities advanced. */
  const wftStartedOf = new Map<string, number>();
  const laClockOf = new Map<string, number>();
  const instant = (label: string, at: number) => spans.push({ kind: 'instant', label, startMs: at, endMs: at });

  for (const e of events) {
    const at = timestampMs(e.eventTime);
    time.set(id(e.eventId), at);
    if (e.workflowExecutionStartedEventAttributes) {
      instant(e.workflowExecutionStartedEventAttributes.continuedExecutionRunId ? 'run started (continued as new)' : 'workflow started', at);
    } else if (e.workflowExecutionSignaledEventAttributes) {
      const a = e.workflowExecutionSignaledEventAttributes;
      const reason = (firstPayload(a.input) as { reason?: string } | undefined)?.reason;
      instant(`signal ${a.signalName ?? '?'}${reason ? `: ${reason}` : ''}`, at);
    } else if (e.workflowExecutionUpdateAcceptedEventAttributes) {
      instant(`update ${e.workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest?.input?.name ?? '?'} accepted`, at);
    } else if (e.workflowTaskCompletedEventAttributes || e.workflowTaskFailedEventAttributes || e.workflowTaskTimedOutEventAttributes) {
      const a = (e.workflowTaskCompletedEventAttributes ?? e.workflowTaskFailedEventAttributes ?? e.workflowTaskTimedOutEventAttributes)!;
      const scheduled = time.get(id(a.scheduledEventId)) ?? at;
      const started = time.get(id((a as { startedEventId?: Long }).startedEventId));
      if (started !== undefined) wftStartedOf.set(id(e.eventId), started);
      const outcome = e.workflowTaskCompletedEventAttributes ? '' : e.workflowTaskFailedEventAttributes ? ' (failed)' : ' (timed out)';
      spans.push({ kind: 'workflow-task', label: `workflow task${outcome}`, startMs: scheduled, waitMs: started !== undefined ? started - scheduled : undefined, runMs: started !== undefined ? at - started : undefined, endMs: at });
    } else if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      activities.set(id(e.eventId), { label: `${a.activityType?.name ?? '?'} [${a.taskQueue?.name ?? '?'}]`, scheduled: at });
    } else if (e.activityTaskStartedEventAttributes) {
      const act = activities.get(id(e.activityTaskStartedEventAttributes.scheduledEventId));
      if (act) act.started = at;
    } else if (e.activityTaskCompletedEventAttributes || e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes || e.activityTaskCanceledEventAttributes) {
      const a = (e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes ?? e.activityTaskCanceledEventAttributes)!;
      const act = activities.get(id(a.scheduledEventId));
      if (!act) continue;
      const outcome = e.activityTaskCompletedEventAttributes ? '' : e.activityTaskFailedEventAttributes ? ' (failed)' : e.activityTaskTimedOutEventAttributes ? ' (timed out)' : ' (canceled)';
      const started = act.started ?? at;
      spans.push({ kind: 'activity', label: `${act.label}${outcome}`, startMs: act.scheduled, waitMs: started - act.scheduled, runMs: at - started, endMs: at });
    } else if (e.markerRecordedEventAttributes) {
      const a = e.markerRecordedEventAttributes;
      const marker = readLocalActivityMarker(a.markerName, a.details as Record<string, { payloads?: Payload[] | null }> | null | undefined);
      if (!marker) continue;
      const task = id(a.workflowTaskCompletedEventId);
      const taskStarted = wftStartedOf.get(task) ?? at;
      // The marker's completion time is workflow time: the task's start plus the runtimes of the local
      // activities it ran one after another. So a local activity's runtime is its completion time
      // minus the previous one's (or the task's start), placed at its wall-clock schedule time.
      // Without times, the workflow task that recorded it bounds it.
      const previous = laClockOf.get(task) ?? taskStarted;
      const runMs = marker.completedMs !== undefined ? Math.max(0, marker.completedMs - previous) : Math.max(0, (time.get(task) ?? at) - taskStarted);
      if (marker.completedMs !== undefined) laClockOf.set(task, marker.completedMs);
      const start = marker.scheduledMs ?? taskStarted;
      spans.push({ kind: 'local-activity', label: `${marker.activityType} (local${marker.attempt > 1 ? `, attempt ${marker.attempt}` : ''})`, startMs: start, runMs, endMs: start + runMs });
    } else if (e.workflowExecutionContinuedAsNewEventAttributes) {
      instant('continued as new', at);
    } else if (e.workflowExecutionCompletedEventAttributes) {
      instant('workflow completed', at);
    }
  }
  return spans;
}
