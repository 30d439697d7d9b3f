// One row of `kubeairunway status` for a FlameCluster: its state, ready executors, session manager and
// configuration generation from the cluster, joined with what its workflow says (step, what it waits
// for, last error).

import { FLAME_CLUSTER_KIND } from '../../api/flame/constants.ts';
import { flameClusterSpecSchema, flameClusterStatusSchema } from '../../api/crd/flame-cluster-schema.ts';
import { conforms } from '../../api/schema/conforms.ts';
import { objectColumns, objectFields, objectFieldsDetail, phaseText, type Described, type ObjectFields } from '../../present/object-status.ts';
import { statusView, type StatusView } from '../../present/status-format.ts';
import type { WorkflowState } from '../../present/workflow-state.ts';

export interface FlameClusterStatusRow extends ObjectFields {
  kind: typeof FLAME_CLUSTER_KIND;
  /** Pending, Running or Failed. */
  state: string | null;
  message: string | null;
  executors: { ready: number | null; replicas: number | null };
  sessionManager: { ready: number | null; endpoint: string | null };
  configGeneration: number | null;
}

/** The row of a FlameCluster as read from the API server: its spec and status are read where they conform to their schemas. */
export function flameClusterStatus(fc: Described & { spec?: unknown; status?: unknown }, wf: WorkflowState | undefined, now: number): FlameClusterStatusRow {
  const { namespace, name, uid, ...rest } = objectFields(FLAME_CLUSTER_KIND, fc, wf, now);
  const status = conforms(flameClusterStatusSchema, fc.status) ? fc.status : {};
  const spec = conforms(flameClusterSpecSchema, fc.spec) ? fc.spec : undefined;
  return {
    kind: FLAME_CLUSTER_KIND,
    namespace,
    name,
    uid,
    // The object is the source of truth; the workflow's view fills the gap before its first status write.
    state: status.state ?? wf?.phase ?? null,
    message: status.message || null,
    // The spec's count until the first status write says what the controller made of it.
    executors: { ready: status.executorManager?.ready ?? null, replicas: status.executorManager?.replicas ?? spec?.executorManager.replicas ?? null },
    sessionManager: { ready: status.sessionManager?.ready ?? null, endpoint: status.sessionManager?.endpoint || null },
    configGeneration: status.configGeneration ?? null,
    ...rest,
  };
}

export function executorsText(s: FlameClusterStatusRow): string | null {
  if (s.executors.ready === null && s.executors.replicas === null) return null;
  return `${s.executors.ready ?? 0}/${s.executors.replicas ?? 0}`;
}

function sessionManagerText(s: FlameClusterStatusRow): string | null {
  const { ready, endpoint } = s.sessionManager;
  if (ready === null && endpoint === null) return null;
  return `${ready ? 'ready' : 'not ready'}${endpoint ? ` at ${endpoint}` : ''}`;
}

export const flameClusterStatusView: StatusView = statusView<FlameClusterStatusRow>({
  row: (obj, wf, now) => flameClusterStatus(obj, wf, now),
  columns: objectColumns<FlameClusterStatusRow>([
    { header: 'STATE', value: (s) => (s.paused ? `${s.state ?? 'Pending'} (paused)` : s.state) },
    { header: 'EXECUTORS', value: executorsText },
  ]),
  fields: (s) =>
    objectFieldsDetail(s, [
      ['State', phaseText(s.state, s)],
      ['Message', s.message],
      ['Executors', executorsText(s) && `${executorsText(s)} ready`],
      ['Session manager', sessionManagerText(s)],
      ['Config generation', s.configGeneration === null ? null : String(s.configGeneration)],
    ]),
});
