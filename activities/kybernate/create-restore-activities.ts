import { READY_CONDITION } from '../../api/kybernate/constants.ts';
import type { RestoreActivities } from '../../contract/kybernate-restore-activities.ts';
import { assessRestore } from './assess-restore.ts';
import type { KybernateActivityDeps } from './kybernate-clients.ts';
import { restoreClients, type RestoreClients } from './restore-clients.ts';
import { applyRestorePod } from './restore-pod.ts';
import { resolveRestoreSource } from './resolve-restore-source.ts';
import type { KindClientParts } from '../kind/kind-client.ts';

export type RestoreActivityDeps = KybernateActivityDeps;

/** The restore's status: its fields and Ready, written when changed. */
export function writeRestoreStatus(r: RestoreClients): RestoreActivities['writeRestoreStatus'] {
  return async function writeRestoreStatus(ref, input) {
    const restore = await r.restores.read(ref);
    if (!restore) return;
    const { ready, ...fields } = input;
    await r.restores.writeConditions(ref, restore, fields, [{ type: READY_CONDITION, ...ready }]);
  };
}

/** The restore's cluster-side steps: reading it and its checkpoint, creating its pod, status. */
export function createRestoreActivities(deps: RestoreActivityDeps, parts?: KindClientParts): RestoreActivities {
  const r = restoreClients(deps, parts);
  return { assessRestore: assessRestore(r), resolveRestoreSource: resolveRestoreSource(r), applyRestorePod: applyRestorePod(r), writeRestoreStatus: writeRestoreStatus(r) };
}
