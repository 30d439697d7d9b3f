// One row of `kubeairunway status` for a ModelDeployment: what the cluster says about it (phase,
// provider, replicas, age) joined with what its workflow says (current step, what it waits for, last
// error); and how the controller acknowledges its pause (the ReconcilePaused condition).

import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { modelDeploymentStatusSchema } from '../../api/crd/model-deployment-schema.ts';
import { conforms } from '../../api/schema/conforms.ts';
import { errorText, objectFields, objectFieldsDetail, phaseText, stepText, type Described, type ObjectFields } from '../../present/object-status.ts';
import { statusView, type StatusView } from '../../present/status-format.ts';
import type { Column } from '../../present/table.ts';
import type { WorkflowState } from '../../present/workflow-state.ts';

export { errorText, stepText };

export interface DeploymentStatus extends ObjectFields {
  phase: string | null;
  message: string | null;
  provider: string | null;
  replicas: { ready: number | null; desired: number | null };
}

/** A ModelDeployment as read from the API server (or typed): its status is read only where it conforms to its schema. */
export type StoredDeployment = Described & { status?: unknown };

const statusOf = (md: { status?: unknown }) => (conforms(modelDeploymentStatusSchema, md.status) ? md.status : undefined);

export function deploymentStatus(md: StoredDeployment, wf: WorkflowState | undefined, now: number): DeploymentStatus {
  const f = objectFields(MODEL_DEPLOYMENT_KIND, md, wf, now);
  const status = statusOf(md);
  const replicas = status?.replicas;
  return {
    namespace: f.namespace,
    name: f.name,
    uid: f.uid,
    // The object is the source of truth for phase and provider; the workflow only fills gaps (before its first status write).
    phase: status?.phase ?? wf?.phase ?? null,
    message: status?.message ?? null,
    provider: status?.provider?.name ?? wf?.provider ?? null,
    replicas: { ready: replicas?.ready ?? null, desired: replicas?.desired ?? null },
    paused: f.paused,
    deleting: f.deleting,
    step: f.step,
    waitingFor: f.waitingFor,
    lastError: f.lastError,
    createdAt: f.createdAt,
    age: f.age,
    workflow: f.workflow,
  };
}

export function readyText(s: DeploymentStatus): string | null {
  if (s.replicas.ready === null && s.replicas.desired === null) return null;
  return `${s.replicas.ready ?? 0}/${s.replicas.desired ?? 0}`;
}

const COLUMNS: Column<DeploymentStatus>[] = [
  { header: 'NAMESPACE', value: (s) => s.namespace },
  { header: 'NAME', value: (s) => s.name },
  { header: 'PHASE', value: (s) => (s.paused ? `${s.phase ?? 'Pending'} (paused)` : s.phase) },
  { header: 'PROVIDER', value: (s) => s.provider },
  { header: 'READY', value: readyText },
  { header: 'STEP', value: stepText },
  { header: 'AGE', value: (s) => s.age },
  { header: 'LAST ERROR', value: lastErrorText, maxWidth: 80 },
];

/**
 * The workflow's last failed step, or, for a Failed deployment whose steps all succeeded (the provider's
 * operator reported the failure, e.g. "insufficient GPUs"), the status message that says why: a Failed
 * row never shows `<none>`.
 */
export function lastErrorText(s: DeploymentStatus): string | null {
  return errorText(s) ?? (s.phase === 'Failed' ? s.message : null);
}

export const deploymentStatusView: StatusView = statusView<DeploymentStatus>({
  row: (obj, wf, now) => deploymentStatus(obj, wf, now),
  columns: COLUMNS,
  fields: (s) =>
    objectFieldsDetail(s, [
      ['Phase', phaseText(s.phase, s)],
      ['Message', s.message],
      ['Provider', s.provider],
      ['Ready', readyText(s)],
    ]),
});

/** Whether the deployment's status reflects the requested pause state (its ReconcilePaused condition). */
export function deploymentPauseAcknowledged(md: StoredDeployment | undefined, pause: boolean): boolean {
  const status = md === undefined ? undefined : statusOf(md);
  const condition = status?.conditions?.find((c) => c.type === 'ReconcilePaused');
  return pause ? condition?.status === 'True' : condition === undefined || condition.status !== 'True';
}
