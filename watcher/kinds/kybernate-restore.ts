import { CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION, RESTORE_KIND, RESTORE_LABEL, RESTORE_PLURAL } from '../../api/kybernate/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { specFingerprint } from '../fingerprint.ts';
import type { WatchedKind } from '../watched-kind.ts';
import { kindIdentity } from './kind-identity.ts';

/** What of a checkpoint a restore waits on: its phase and image (a Pending restore goes on when it completes). */
function checkpointFingerprint(obj: AnyObject): string {
  const status = (obj.status ?? {}) as { phase?: string; checkpointRef?: string; nodeName?: string };
  return JSON.stringify([obj.metadata?.uid ?? '', status.phase ?? '', status.checkpointRef ?? '', status.nodeName ?? '']);
}

/**
 * KybernateRestores (seed 003): a restore's pod (labelled with its name, owned by it) wakes it as it
 * starts or fails; a KybernateCheckpoint's progress wakes the restores that name it.
 */
export const kybernateRestoreKind: WatchedKind = {
  ...kindIdentity(RESTORE_KIND, 'kybernateRestoreWorkflow', { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: RESTORE_PLURAL }),
  fingerprint: specFingerprint,
  // No finalizer: a restore the workflow has not written status to yet is new.
  isNew: (r) => r.status === undefined,
  children: [{ group: '', version: 'v1', plural: 'pods', labelSelector: RESTORE_LABEL }],
  related({ watch, wakeWhere, namespaces }) {
    const seen = new Map<string, string>();
    const key = (o: AnyObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
    const names = (restore: AnyObject, cp: AnyObject) =>
      restore.metadata?.namespace === cp.metadata?.namespace && (restore.spec as { checkpointRef?: string } | undefined)?.checkpointRef === cp.metadata?.name;
    const changed = (cp: AnyObject) => wakeWhere(`${CHECKPOINT_KIND} ${key(cp)} changed`, (restore) => names(restore, cp));
    // The namespaces the kind is watched in: the same informers as the checkpoint kind's own watch.
    for (const namespace of namespaces) {
      watch(CHECKPOINT_KIND, { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, namespace }, {
        upsert: (cp) => {
          const fingerprint = checkpointFingerprint(cp);
          if (seen.get(key(cp)) === fingerprint) return;
          seen.set(key(cp), fingerprint);
          changed(cp);
        },
        remove: (cp) => {
          seen.delete(key(cp));
          changed(cp);
        },
      });
    }
  },
};
