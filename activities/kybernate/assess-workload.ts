import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { workloadPodName } from '../../api/kybernate/constants.ts';
import { parseDuration } from '../../api/kybernate/duration.ts';
import type { KybernateWorkload } from '../../api/kybernate/types.ts';
import { validateKybernateWorkload } from '../../api/kybernate/validate.ts';
import type { IdleMode, WorkloadActivities } from '../../contract/kybernate-workload-activities.ts';
import { lastSuspendNumber } from './suspend-checkpoint.ts';
import { checkpointsOf, type WorkloadClients } from './workload-clients.ts';

/** How the workload goes to zero when idle (see IdleMode). */
export function idleModeOf(spec: KybernateWorkload['spec']): IdleMode {
  if (spec.suspend.enabled) return 'checkpoint';
  if (spec.scaleToZero.enabled && spec.scaleToZero.minReplicas === 0) return 'cold';
  return 'never';
}

/** What the workload's pass decides on: its pod's name, how it idles, and (asked for) what earlier suspends left. */
export function assessWorkload(w: WorkloadClients): WorkloadActivities['assessWorkload'] {
  return async function assessWorkload(ref, opts = {}) {
    const workload = await w.workloads.read(ref);
    if (!workload) return { found: false };
    const m = workload.metadata;
    const seen = {
      found: true,
      generation: m.generation,
      resourceVersion: m.resourceVersion,
      podName: workloadPodName(workload),
      ...(opts.earlier ? { earlier: { suspendedCheckpoints: workload.status?.suspendedCheckpoints ?? 0, lastSuspend: lastSuspendNumber(await checkpointsOf(w, ref), ref.name) } } : {}),
    };
    if (m.deletionTimestamp) return { ...seen, deleting: true };
    if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { ...seen, paused: true };
    const checked = validateKybernateWorkload(workload);
    if (!checked.valid) {
      w.workloads.refuse(ref, checked.message);
      return { ...seen, invalid: checked.message };
    }
    const { spec } = checked.workload;
    const idleTimeoutMs = parseDuration(spec.suspend.idleTimeout);
    return { ...seen, idleMode: idleModeOf(spec), ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) };
  };
}
