// What FlameCluster steps mean for metrics and logs (observability/step-outcome.ts).

import type { FlameClusterStatus } from '../../api/flame/types.ts';
import type { FlameApplyOutcome } from '../../contract/flame-activities.ts';
import type { StepOutcome, StepOutcomeReader } from '../../observability/step-outcome.ts';

function flameApplyOutcome(a: FlameApplyOutcome): StepOutcome {
  if (!a.found) return { summary: 'the cluster is gone', fields: {} };
  if (a.deleting) return { summary: 'being deleted (the garbage collector removes its children)', fields: {} };
  if (a.paused) return { summary: 'paused', fields: { paused: true } };
  if (a.invalid) return { errorType: 'InvalidSpec', summary: a.invalid, fields: { message: a.invalid } };
  const fields = { generation: a.generation, configGeneration: a.configGeneration, changes: a.changes.length };
  const summary = [a.changes.length > 0 ? a.changes.join('; ') : 'nothing to change', ...(a.waitingFor ? [`waiting for ${a.waitingFor}`] : [])].join('; ');
  return { summary, fields };
}

function flameStatusOutcome(status: FlameClusterStatus): StepOutcome {
  const fields = { state: status.state, ready: status.executorManager?.ready, replicas: status.executorManager?.replicas };
  if (status.state === 'Failed') return { errorType: 'FlameClusterFailed', summary: status.message, fields: { ...fields, message: status.message } };
  return { summary: `state ${status.state}${status.message ? `: ${status.message}` : ''}`, fields };
}

export const flameStepOutcomes: Readonly<Record<string, StepOutcomeReader>> = {
  applyFlameCluster: (result) => flameApplyOutcome(result as FlameApplyOutcome),
  reportFlameStatus: (result) => flameStatusOutcome(result as FlameClusterStatus),
};
