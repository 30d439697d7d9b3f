import { READY_CONDITION, SUSPEND_DEGRADED_CONDITION } from '../../api/kybernate/constants.ts';
import type { WorkloadActivities } from '../../contract/kybernate-workload-activities.ts';
import { assessWorkload } from './assess-workload.ts';
import type { KybernateActivityDeps } from './kybernate-clients.ts';
import { applySuspendCheckpoint, pruneSuspendCheckpoints } from './suspend-checkpoint.ts';
import { workloadClients, type WorkloadClients } from './workload-clients.ts';
import { applyWorkloadPod, deleteWorkloadPod } from './workload-pod.ts';
import type { KindClientParts } from '../kind/kind-client.ts';

export type WorkloadActivityDeps = KybernateActivityDeps;

/** The workload's status: its fields, Ready and SuspendDegraded, written when changed. */
export function writeWorkloadStatus(w: WorkloadClients): WorkloadActivities['writeWorkloadStatus'] {
  return async function writeWorkloadStatus(ref, input) {
    const workload = await w.workloads.read(ref);
    if (!workload) return;
    const { ready, degraded, ...fields } = input;
    await w.workloads.writeConditions(ref, workload, fields, [
      { type: READY_CONDITION, ...ready },
      { type: SUSPEND_DEGRADED_CONDITION, ...degraded },
    ]);
  };
}

/** The workload's cluster-side steps: reading it, its pod, its suspend checkpoints, status. */
export function createWorkloadActivities(deps: WorkloadActivityDeps, parts?: KindClientParts): WorkloadActivities {
  const w = workloadClients(deps, parts);
  return {
    assessWorkload: assessWorkload(w),
    applyWorkloadPod: applyWorkloadPod(w),
    deleteWorkloadPod: deleteWorkloadPod(w),
    applySuspendCheckpoint: applySuspendCheckpoint(w),
    pruneSuspendCheckpoints: pruneSuspendCheckpoints(w),
    writeWorkloadStatus: writeWorkloadStatus(w),
  };
}
