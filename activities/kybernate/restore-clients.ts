import type { KybernateCheckpoint, KybernateRestore } from '../../api/kybernate/types.ts';
import { validateKybernateRestore } from '../../api/kybernate/validate.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { CustomObjects } from '../../kube/custom-objects.ts';
import type { KindClient, KindClientParts } from '../kind/kind-client.ts';
import { KYBERNATE_CHECKPOINT, KYBERNATE_RESTORE } from './kinds.ts';
import { kybernateClient, type KybernateActivityDeps } from './kybernate-clients.ts';

/** What the restore's activities share: its kind's client and the checkpoints' it restores from, on one connection. */
export interface RestoreClients {
  restores: KindClient<KybernateRestore>;
  checkpoints: KindClient<KybernateCheckpoint>;
  objects: CustomObjects;
}

export function restoreClients(deps: KybernateActivityDeps, parts?: KindClientParts): RestoreClients {
  const restores = kybernateClient<KybernateRestore>(KYBERNATE_RESTORE, deps, parts);
  return { restores, checkpoints: kybernateClient<KybernateCheckpoint>(KYBERNATE_CHECKPOINT, deps, { objects: restores.objects }), objects: restores.objects };
}

/** A valid restore, defaults filled in (the workflow asked for the source or the pod only after it validated); undefined when it is gone. */
export async function validRestore(r: RestoreClients, ref: ReadRef): Promise<KybernateRestore | undefined> {
  const restore = await r.restores.read(ref);
  const checked = restore && validateKybernateRestore(restore);
  if (!checked) return undefined;
  if (!checked.valid) throw r.restores.invalid(ref, checked.message);
  return { ...checked.restore, metadata: { ...checked.restore.metadata, uid: ref.uid } };
}
