// What `kubeairunway status` shows of any kind's object: its metadata (age, paused, being deleted)
// joined with what its workflow's view says (phase, step, what it waits for, last error). Kinds with
// more to show (replicas, executors) build their rows on these fields; a kind with nothing more is
// shown by them alone.

import { PAUSE_ANNOTATION } from '../api/constants.ts';
import type { AnyObject } from '../kube/custom-objects.ts';
import { workflowIdFor } from '../contract/object-ref.ts';
import { formatAge } from './durations.ts';
import { statusView, type DetailField } from './status-format.ts';
import type { Column } from './table.ts';
import type { WorkflowState } from './workflow-state.ts';

export interface ObjectFields {
  namespace: string;
  name: string;
  uid: string;
  paused: boolean;
  deleting: boolean;
  step: string | null;
  waitingFor: string | null;
  lastError: { step?: string; type?: string; message: string; at?: string } | null;
  createdAt: string | null;
  age: string | null;
  workflow: { id: string; status: string; source: WorkflowState['source']; note: string | null };
}

/** Any kind's row: the object's fields with the phase its workflow reports. */
export interface ObjectStatus extends ObjectFields {
  kind: string;
  phase: string | null;
  message: string | null;
}

/** What the fields come from: the metadata any object carries, as read (AnyObject) or as its kind's type. */
export interface Described {
  metadata?: { name?: string; namespace?: string; uid?: string; annotations?: Record<string, string>; deletionTimestamp?: string; creationTimestamp?: string };
}

export function objectFields(kind: string, obj: Described, wf: WorkflowState | undefined, now: number): ObjectFields {
  const m = obj.metadata ?? {};
  const [namespace, name, uid] = [m.namespace ?? '', m.name ?? '', m.uid ?? ''];
  const createdMs = m.creationTimestamp ? Date.parse(m.creationTimestamp) : NaN;
  return {
    namespace,
    name,
    uid,
    paused: m.annotations?.[PAUSE_ANNOTATION] === 'true',
    deleting: Boolean(m.deletionTimestamp),
    step: wf?.step ?? null,
    waitingFor: wf?.waitingFor ?? null,
    lastError: wf?.lastError ?? null,
    createdAt: m.creationTimestamp ?? null,
    age: Number.isFinite(createdMs) ? formatAge(now - createdMs) : null,
    workflow: { id: wf?.workflowId ?? workflowIdFor(kind, { namespace, name, uid }), status: wf?.status ?? 'UNKNOWN', source: wf?.source ?? 'none', note: wf?.note ?? null },
  };
}

export function objectStatus(kind: string, obj: AnyObject, wf: WorkflowState | undefined, now: number): ObjectStatus {
  const { namespace, name, uid, ...rest } = objectFields(kind, obj, wf, now);
  const status = (obj.status ?? {}) as { phase?: string; message?: string };
  // The object's status is the source of truth; the workflow's view fills the gap before its first write.
  return { kind, namespace, name, uid, phase: status.phase ?? wf?.phase ?? null, message: status.message ?? null, ...rest };
}

export function stepText(s: Pick<ObjectFields, 'step' | 'waitingFor'>): string | null {
  if (!s.step) return null;
  return s.waitingFor ? `${s.step} (waiting)` : s.step;
}

export function errorText(s: Pick<ObjectFields, 'lastError'>): string | null {
  if (!s.lastError) return null;
  return s.lastError.type ? `${s.lastError.type}: ${s.lastError.message}` : s.lastError.message;
}

/** `Running (reconciliation paused)`: the phase (or state) with what overrides it. */
export function phaseText(phase: string | null, s: Pick<ObjectFields, 'paused' | 'deleting'>): string | null {
  return phase ? `${phase}${s.paused ? ' (reconciliation paused)' : ''}${s.deleting ? ' (being deleted)' : ''}` : null;
}

export function lastErrorDetail(s: Pick<ObjectFields, 'lastError'>): string | null {
  const e = s.lastError;
  return e ? `${errorText(s)}${e.step ? ` (step ${e.step}${e.at ? `, ${e.at}` : ''})` : ''}` : null;
}

export function workflowText(s: Pick<ObjectFields, 'workflow'>): string {
  return s.workflow.status.toLowerCase().replace(/_/g, ' ');
}

/** The columns every kind's table shares, around the kind's own (after NAME). */
export function objectColumns<Row extends ObjectFields>(own: readonly Column<Row>[]): Column<Row>[] {
  return [
    { header: 'NAMESPACE', value: (s) => s.namespace },
    { header: 'NAME', value: (s) => s.name },
    ...own,
    { header: 'STEP', value: (s) => s.step },
    { header: 'WAITING FOR', value: (s) => s.waitingFor, maxWidth: 40 },
    { header: 'AGE', value: (s) => s.age },
    { header: 'LAST ERROR', value: errorText, maxWidth: 60 },
    { header: 'WORKFLOW', value: workflowText },
  ];
}

/** The detail fields every kind shares, around the kind's own (after the name). */
export function objectFieldsDetail(s: ObjectFields, own: readonly DetailField[]): DetailField[] {
  return [
    ['Name', `${s.namespace}/${s.name}`],
    ...own,
    ['Step', s.step],
    ['Waiting for', s.waitingFor],
    ['Last error', lastErrorDetail(s)],
    ['Age', s.age],
    ['Workflow', `${s.workflow.id} (${workflowText(s)})`],
  ];
}

/** The status of a kind with nothing of its own to show. */
export function objectStatusView(kind: string) {
  return statusView<ObjectStatus>({
    row: (obj, wf, now) => objectStatus(kind, obj, wf, now),
    columns: objectColumns<ObjectStatus>([{ header: 'PHASE', value: (s) => (s.paused ? `${s.phase ?? 'Pending'} (paused)` : s.phase) }]),
    fields: (s) => objectFieldsDetail(s, [['Kind', s.kind], ['Phase', phaseText(s.phase, s)], ['Message', s.message]]),
  });
}
