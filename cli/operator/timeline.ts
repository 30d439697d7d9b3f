// An object's timeline from its workflow histories: one entry per reconciliation step (activity or
// local activity) with
// its time, duration, attempts, outcome and error, plus what woke each pass (a watch signal, a retry,
// a timer) and where one run continued as new. Pure: it reads history events and nothing else.

import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { STEP_OUTCOMES } from '../../kinds/index.ts';
import { stepOutcome } from '../../observability/step-outcome.ts';
import { splitActivityType } from '../../workflows/model-deployment/settings.ts';

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
export type HistoryEvent = NonNullable<History['events']>[number];
type ProtoFailure = NonNullable<NonNullable<HistoryEvent['activityTaskFailedEventAttributes']>['failure']>;

export type EntryKind = 'step' | 'signal' | 'update' | 'timer' | 'workflow';
export type Outcome = 'completed' | 'failed' | 'timed out' | 'canceled' | 'running' | 'fired' | 'received' | 'terminated' | 'continued as new';

export interface TimelineEntry {
  /** ISO time the entry began (scheduled, received, started). */
  time: string;
  /** 1 for the oldest run shown. */
  run: number;
  kind: EntryKind;
  /** Activity name for steps; a short label otherwise. */
  step: string;
  durationMs: number | null;
  outcome: Outcome;
  attempts: number | null;
  /** `Type: message` of the failure, for failed steps (or the last failed attempt of a running one). */
  error: string | null;
  /** What the step did or why the pass began, in a few words. */
  detail: string | null;
  /** Task queue of a step: the core's or a provider's. */
  taskQueue: string | null;
}

export interface RunHistory {
  runId: string;
  events: readonly HistoryEvent[];
  /** Activities still pending in this run (from describe), by activity ID. */
  pending?: ReadonlyMap<string, PendingStep>;
}

/** An activity the server reports as still pending: its current attempt and the last attempt's failure. */
export interface PendingStep {
  attempt: number;
  lastFailure: ProtoFailure | null | undefined;
}

// temporal.api.enums.v1.TimeoutType
const TIMEOUT_TYPES: Record<number, string> = { 1: 'START_TO_CLOSE', 2: 'SCHEDULE_TO_START', 3: 'SCHEDULE_TO_CLOSE', 4: 'HEARTBEAT' };

type Long = { toString(): string } | number | string | null | undefined;
const key = (id: Long) => String(id ?? '');

export function timestampMs(ts: HistoryEvent['eventTime']): number {
  if (!ts) return NaN;
  const seconds = ts.seconds;
  const s = typeof seconds === 'number' ? seconds : Number(seconds?.toString() ?? 0);
  return s * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

function decode(payloads: { payloads?: Payload[] | null } | null | undefined): unknown {
  const first = payloads?.payloads?.[0];
  if (!first) return undefined;
  try {
    return defaultPayloadConverter.fromPayload(first);
  } catch {
    return undefined;
  }
}

/** The innermost useful message of a failure, with its type: what a person needs to act. */
export function describeFailure(failure: ProtoFailure | null | undefined, taskQueue?: string | null): string | null {
  if (!failure) return null;
  const timeout = failure.timeoutFailureInfo?.timeoutType;
  if (timeout !== undefined && timeout !== null) {
    const type = TIMEOUT_TYPES[timeout] ?? String(timeout);
    if (type === 'SCHEDULE_TO_START') return `ProviderUnavailable: no worker picked the step up from task queue ${taskQueue ?? '?'} in time`;
    return `Timeout:${type}: ${failure.message ?? 'timed out'}`;
  }
  const type = failure.applicationFailureInfo?.type;
  const own = failure.message ?? '';
  if (!type && failure.cause) return describeFailure(failure.cause, taskQueue);
  return type ? `${type}: ${own}` : own || null;
}

/** What the SDK records about a local activity in its marker's `data` detail. */
interface LocalActivityMarkerData {
  attempt?: number;
  activity_type?: string;
  complete_time?: { seconds?: number | string; nanos?: number };
}

const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

function signalDetail(name: string, input: unknown): string | null {
  if (name === 'reconcile' && input && typeof input === 'object') {
    const r = input as { reason?: string; generation?: number };
    return [r.reason, r.generation !== undefined ? `generation ${r.generation}` : undefined].filter(Boolean).join(', ') || null;
  }
  return null;
}

function retryDetail(result: unknown): { outcome: string; text: string } | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const r = result as { retried?: string; outcome?: string; error?: { type?: string; message?: string } };
  const what = r.retried ? `retried ${r.retried}` : 'nothing to retry';
  const how = r.outcome === 'failed' && r.error ? `failed again: ${r.error.type}: ${r.error.message}` : (r.outcome ?? 'unknown');
  return { outcome: r.outcome ?? 'unknown', text: `${what}; ${how}` };
}

/** A completed step's result: an error outcome is its error (said once, not again as detail), otherwise its summary. */
function applyOutcome(target: TimelineEntry, outcome: ReturnType<typeof stepOutcome>): void {
  if (outcome.errorType) {
    target.error = `${outcome.errorType}: ${outcome.summary}`;
    target.detail = null;
  } else {
    target.detail = outcome.summary ?? null;
  }
}

/** Entries of several runs of one workflow, oldest run first, each in event order; `noun` names the object ("the deployment is gone"). */
export function buildTimeline(runs: readonly RunHistory[], now: number = Date.now(), noun = 'deployment'): TimelineEntry[] {
  return runs.flatMap((run, index) => runTimeline(run, index + 1, index === 0, now, noun));
}

function runTimeline(run: RunHistory, runNumber: number, first: boolean, now: number, noun: string): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const byScheduledId = new Map<string, TimelineEntry>();
  const scheduledActivityId = new Map<string, string>();
  const updates = new Map<string, TimelineEntry>();
  const timers = new Map<string, { at: number; summary?: string }>();
  const at = (e: HistoryEvent) => timestampMs(e.eventTime);
  // A local activity runs inside a workflow task and is recorded when that task completes: it began
  // when the task (or the local activity before it) did.
  let coreQueue: string | null = null;
  let localStepsFrom = NaN;
  const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '');
  const entry = (e: HistoryEvent, fields: Omit<TimelineEntry, 'time' | 'run' | 'durationMs' | 'attempts' | 'error' | 'detail' | 'taskQueue'> & Partial<TimelineEntry>): TimelineEntry => {
    const made: TimelineEntry = { time: iso(at(e)), run: runNumber, durationMs: null, attempts: null, error: null, detail: null, taskQueue: null, ...fields };
    entries.push(made);
    return made;
  };
  const close = (target: TimelineEntry | undefined, e: HistoryEvent, outcome: Outcome) => {
    if (!target) return undefined;
    target.outcome = outcome;
    target.durationMs = Math.max(0, at(e) - Date.parse(target.time));
    return target;
  };

  for (const e of run.events) {
    const id = key(e.eventId);
    if (e.workflowTaskStartedEventAttributes) {
      localStepsFrom = at(e);
    } else if (e.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER) {
      const a = e.markerRecordedEventAttributes;
      const data = decode(a.details?.data) as LocalActivityMarkerData | undefined;
      const done = data?.complete_time ? timestampMs(data.complete_time as HistoryEvent['eventTime']) : at(e);
      const began = Number.isFinite(localStepsFrom) ? Math.min(localStepsFrom, done) : done;
      const made = entry(e, {
        kind: 'step',
        step: data?.activity_type ?? '?',
        outcome: a.failure ? 'failed' : 'completed',
        attempts: data?.attempt ?? 1,
        taskQueue: coreQueue,
        durationMs: Math.max(0, done - began),
      });
      made.time = iso(began);
      localStepsFrom = done;
      if (a.failure) made.error = describeFailure(a.failure, coreQueue);
      else {
        // An in-process provider's step (`dynamo:reconcileResource`) reads as the provider's own would.
        applyOutcome(made, stepOutcome(STEP_OUTCOMES, splitActivityType(made.step).activity, decode(a.details?.result)));
      }
    } else if (e.workflowExecutionStartedEventAttributes) {
      const a = e.workflowExecutionStartedEventAttributes;
      coreQueue = a.taskQueue?.name ?? null;
      const continued = Boolean(a.continuedExecutionRunId);
      entry(e, {
        kind: 'workflow',
        step: continued ? 'run continued' : 'workflow started',
        outcome: 'received',
        detail: continued || !first ? `run ${run.runId}` : `run ${run.runId}, task queue ${a.taskQueue?.name ?? '?'}`,
      });
    } else if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      const made = entry(e, { kind: 'step', step: a.activityType?.name ?? '?', outcome: 'running', taskQueue: a.taskQueue?.name ?? null });
      byScheduledId.set(id, made);
      if (a.activityId) scheduledActivityId.set(id, a.activityId);
    } else if (e.activityTaskStartedEventAttributes) {
      const a = e.activityTaskStartedEventAttributes;
      const target = byScheduledId.get(key(a.scheduledEventId));
      if (target) {
        target.attempts = a.attempt ?? 1;
        // The last failed attempt before this one: the reason the step took long.
        if (a.lastFailure) target.error = describeFailure(a.lastFailure, target.taskQueue);
      }
    } else if (e.activityTaskCompletedEventAttributes) {
      const a = e.activityTaskCompletedEventAttributes;
      const target = close(byScheduledId.get(key(a.scheduledEventId)), e, 'completed');
      if (target) {
        // A retried step keeps its last failed attempt's error: the reason it took long.
        if (!(target.attempts && target.attempts > 1)) target.error = null;
        applyOutcome(target, stepOutcome(STEP_OUTCOMES, target.step, decode(a.result)));
      }
    } else if (e.activityTaskFailedEventAttributes) {
      const a = e.activityTaskFailedEventAttributes;
      const target = close(byScheduledId.get(key(a.scheduledEventId)), e, 'failed');
      if (target) target.error = describeFailure(a.failure, target.taskQueue);
    } else if (e.activityTaskTimedOutEventAttributes) {
      const a = e.activityTaskTimedOutEventAttributes;
      const target = close(byScheduledId.get(key(a.scheduledEventId)), e, 'timed out');
      if (target) target.error = describeFailure(a.failure, target.taskQueue);
    } else if (e.activityTaskCanceledEventAttributes) {
      close(byScheduledId.get(key(e.activityTaskCanceledEventAttributes.scheduledEventId)), e, 'canceled');
    } else if (e.workflowExecutionSignaledEventAttributes) {
      const a = e.workflowExecutionSignaledEventAttributes;
      const name = a.signalName ?? '?';
      entry(e, { kind: 'signal', step: `signal ${name}`, outcome: 'received', detail: signalDetail(name, decode(a.input)) });
    } else if (e.workflowExecutionUpdateAcceptedEventAttributes) {
      const a = e.workflowExecutionUpdateAcceptedEventAttributes;
      const made = entry(e, { kind: 'update', step: `update ${a.acceptedRequest?.input?.name ?? '?'}`, outcome: 'running' });
      updates.set(id, made);
    } else if (e.workflowExecutionUpdateCompletedEventAttributes) {
      const a = e.workflowExecutionUpdateCompletedEventAttributes;
      const target = updates.get(key(a.acceptedEventId));
      if (a.outcome?.failure) {
        close(target, e, 'failed');
        if (target) target.error = describeFailure(a.outcome.failure);
      } else {
        close(target, e, 'completed');
        const detail = retryDetail(decode(a.outcome?.success));
        if (target && detail) {
          target.detail = detail.text;
          if (detail.outcome === 'failed') target.outcome = 'failed';
        }
      }
    } else if (e.timerStartedEventAttributes) {
      // A timer the workflow named (its user metadata's summary) says why it ran; others wait for the next check.
      const summary = decode(e.userMetadata?.summary ? { payloads: [e.userMetadata.summary] } : undefined);
      timers.set(key(e.timerStartedEventAttributes.timerId), { at: at(e), ...(typeof summary === 'string' ? { summary } : {}) });
    } else if (e.timerFiredEventAttributes) {
      // Only a timer that fired began a pass; one cancelled by a signal says nothing new.
      const started = timers.get(key(e.timerFiredEventAttributes.timerId));
      const waited = started ? at(e) - started.at : null;
      const detail = started?.summary ?? (waited !== null ? 'waited for the next check' : null);
      entry(e, { kind: 'timer', step: 'timer', outcome: 'fired', durationMs: waited, detail });
    } else if (e.workflowTaskFailedEventAttributes) {
      const a = e.workflowTaskFailedEventAttributes;
      entry(e, { kind: 'workflow', step: 'workflow task', outcome: 'failed', error: describeFailure(a.failure) });
    } else if (e.workflowExecutionContinuedAsNewEventAttributes) {
      entry(e, { kind: 'workflow', step: 'continued as new', outcome: 'continued as new', detail: `next run ${e.workflowExecutionContinuedAsNewEventAttributes.newExecutionRunId ?? '?'}` });
    } else if (e.workflowExecutionCompletedEventAttributes) {
      entry(e, { kind: 'workflow', step: 'workflow completed', outcome: 'completed', detail: `the ${noun} is gone` });
    } else if (e.workflowExecutionFailedEventAttributes) {
      entry(e, { kind: 'workflow', step: 'workflow failed', outcome: 'failed', error: describeFailure(e.workflowExecutionFailedEventAttributes.failure) });
    } else if (e.workflowExecutionTerminatedEventAttributes) {
      entry(e, { kind: 'workflow', step: 'workflow terminated', outcome: 'terminated', detail: e.workflowExecutionTerminatedEventAttributes.reason || null });
    } else if (e.workflowExecutionCanceledEventAttributes) {
      entry(e, { kind: 'workflow', step: 'workflow canceled', outcome: 'canceled' });
    }
  }

  // Steps still running: their duration so far, and the attempt and failure the server reports.
  for (const [scheduledId, target] of byScheduledId) {
    if (target.outcome !== 'running') continue;
    target.durationMs = Math.max(0, now - Date.parse(target.time));
    const pending = run.pending?.get(scheduledActivityId.get(scheduledId) ?? '');
    if (pending) {
      target.attempts = pending.attempt;
      target.error = describeFailure(pending.lastFailure, target.taskQueue) ?? target.error;
    }
  }
  for (const target of updates.values()) if (target.outcome === 'running') target.durationMs = Math.max(0, now - Date.parse(target.time));
  return entries;
}
