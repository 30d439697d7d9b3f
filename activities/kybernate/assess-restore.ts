import type { KybernateRestore } from '../../api/kybernate/types.ts';
import { validateKybernateRestore } from '../../api/kybernate/validate.ts';
import type { RestoreActivities } from '../../contract/kybernate-restore-activities.ts';
import { passGates } from '../kind/assess-gates.ts';
import type { RestoreClients } from './restore-clients.ts';

/** What the restore's pass decides on: its phase so far, its timeout and the checkpoint it names. */
export function assessRestore(r: RestoreClients): RestoreActivities['assessRestore'] {
  return async function assessRestore(ref) {
    const gate = await passGates(r.restores, ref, seenOf, validateKybernateRestore);
    if ('stop' in gate) return gate.stop;
    const { seen, checked } = gate;
    const { spec } = checked.restore;
    return { ...seen, timeoutSeconds: spec.timeout, ...(spec.checkpointRef ? { checkpointRef: spec.checkpointRef } : {}) };
  };
}

/** When the restore was made (its timeout counts from then) and what its status has recorded so far. */
function seenOf(restore: KybernateRestore) {
  const m = restore.metadata as KybernateRestore['metadata'] & { creationTimestamp?: string };
  return {
    ...(m.creationTimestamp ? { createdAt: m.creationTimestamp } : {}),
    ...(restore.status?.phase ? { phase: restore.status.phase } : {}),
    ...(restore.status?.restoreTime ? { restoreTime: restore.status.restoreTime } : {}),
  };
}
