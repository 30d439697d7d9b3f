// One row of `kubeairunway status`: what the cluster says about a ModelDeployment (phase, provider,
// replicas, age) joined with what its workflow says (current step, what it waits for, last error).

import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { workflowIdFor } from '../../workflows/ids.ts';
import { formatAge } from './durations.ts';
import type { WorkflowState } from './workflow-state.ts';

export interface DeploymentStatus {
  namespace: string;
  name: string;
  uid: string;
  phase: string | null;
  message: string | null;
  provider: string | null;
  replicas: { ready: number | null; desired: number | null };
  paused: boolean;
  deleting: boolean;
  step: string | null;
  waitingFor: string | null;
  lastError: { step?: string; type?: string; message: string; at?: string } | null;
  createdAt: string | null;
  age: string | null;
  workflow: { id: string; status: string; source: WorkflowState['source']; note: string | null };
}

export function deploymentStatus(md: ModelDeployment, wf: WorkflowState | undefined, now: number): DeploymentStatus {
  const namespace = md.metadata.namespace ?? '';
  const name = md.metadata.name ?? '';
  const uid = md.metadata.uid ?? '';
  const created = md.metadata.creationTimestamp;
  const createdMs = created ? Date.parse(created) : NaN;
  const replicas = md.status?.replicas;
  return {
    namespace,
    name,
    uid,
    // The object is the source of truth for phase and provider; the workflow only fills gaps (before its first status write).
    phase: md.status?.phase ?? wf?.phase ?? null,
    message: md.status?.message ?? null,
    provider: md.status?.provider?.name ?? wf?.provider ?? null,
    replicas: { ready: replicas?.ready ?? null, desired: replicas?.desired ?? null },
    paused: md.metadata.annotations?.[PAUSE_ANNOTATION] === 'true',
    deleting: Boolean(md.metadata.deletionTimestamp),
    step: wf?.step ?? null,
    waitingFor: wf?.waitingFor ?? null,
    lastError: wf?.lastError ?? null,
    createdAt: created ?? null,
    age: Number.isFinite(createdMs) ? formatAge(now - createdMs) : null,
    workflow: { id: wf?.workflowId ?? workflowIdFor({ namespace, name, uid }), status: wf?.status ?? 'UNKNOWN', source: wf?.source ?? 'none', note: wf?.note ?? null },
  };
}

export function readyText(s: DeploymentStatus): string | null {
  if (s.replicas.ready === null && s.replicas.desired === null) return null;
  return `${s.replicas.ready ?? 0}/${s.replicas.desired ?? 0}`;
}

export function stepText(s: DeploymentStatus): string | null {
  if (!s.step) return null;
  return s.waitingFor ? `${s.step} (waiting)` : s.step;
}

export function errorText(s: DeploymentStatus): string | null {
  if (!s.lastError) return null;
  return s.lastError.type ? `${s.lastError.type}: ${s.lastError.message}` : s.lastError.message;
}
