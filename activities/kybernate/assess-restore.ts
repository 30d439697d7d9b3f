import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { KybernateRestore } from '../../api/kybernate/types.ts';
import { validateKybernateRestore } from '../../api/kybernate/validate.ts';
import type { RestoreActivities } from '../../contract/kybernate-restore-activities.ts';
import type { RestoreClients } from './restore-clients.ts';

/** What the restore's pass decides on: its phase so far, its timeout and the checkpoint it names. */
export function assessRestore(r: RestoreClients): RestoreActivities['assessRestore'] {
  return async function assessRestore(ref) {
    const restore = await r.restores.read(ref);
    if (!restore) return { found: false };
    const m = restore.metadata as KybernateRestore['metadata'] & { creationTimestamp?: string };
    const seen = {
      found: true,
      generation: m.generation,
      resourceVersion: m.resourceVersion,
      ...(m.creationTimestamp ? { createdAt: m.creationTimestamp } : {}),
      ...(restore.status?.phase ? { phase: restore.status.phase } : {}),
      ...(restore.status?.restoreTime ? { restoreTime: restore.status.restoreTime } : {}),
    };
    if (m.deletionTimestamp) return { ...seen, deleting: true };
    if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { ...seen, paused: true };
    const checked = validateKybernateRestore(restore);
    if (!checked.valid) {
      r.restores.refuse(ref, checked.message);
      return { ...seen, invalid: checked.message };
    }
    const { spec } = checked.restore;
    return { ...seen, timeoutSeconds: spec.timeout, ...(spec.checkpointRef ? { checkpointRef: spec.checkpointRef } : {}) };
  };
}
