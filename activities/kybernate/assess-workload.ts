import { workloadPodName } from '../../api/kybernate/constants.ts';
import { parseDuration } from '../../api/kybernate/duration.ts';
import type { KybernateWorkload } from '../../api/kybernate/types.ts';
import { validateKybernateWorkload } from '../../api/kybernate/validate.ts';
import type { IdleMode, WorkloadActivities } from '../../contract/kybernate-workload-activities.ts';
import { passGates } from '../kind/assess-gates.ts';
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
    const seenOf = async (workload: KybernateWorkload) => ({
      podName: workloadPodName(workload),
      ...(opts.earlier ? { earlier: { suspendedCheckpoints: workload.status?.suspendedCheckpoints ?? 0, lastSuspend: lastSuspendNumber(await checkpointsOf(w, ref), ref.name) } } : {}),
    });
    const gate = await passGates(w.workloads, ref, seenOf, validateKybernateWorkload);
    if ('stop' in gate) return gate.stop;
    const { seen, checked } = gate;
    const { spec } = checked.workload;
    const idleTimeoutMs = parseDuration(spec.suspend.idleTimeout);
    return { ...seen, idleMode: idleModeOf(spec), ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) };
  };
}
