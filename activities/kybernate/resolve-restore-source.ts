import type { RestoreActivities } from '../../contract/kybernate-restore-activities.ts';
import { validRestore, type RestoreClients } from './restore-clients.ts';

/** The image to restore from: named outright, or the one a completed checkpoint made (pinned to its node when kept there). */
export function resolveRestoreSource(r: RestoreClients): RestoreActivities['resolveRestoreSource'] {
  return async function resolveRestoreSource(ref) {
    const restore = await validRestore(r, ref);
    if (!restore) return { ready: false, failed: false, reason: 'CheckpointNotFound', message: `KybernateRestore ${ref.namespace}/${ref.name} is gone` };
    const { checkpointImage, checkpointRef } = restore.spec;
    if (checkpointImage) return { ready: true, checkpointImage };
    const name = checkpointRef ?? '';
    // From the watched cache when it covers the object (the watch that woke the workflow filled it), else the API server.
    const cp = await r.checkpoints.byName(ref.namespace, name);
    // Not failed: the checkpoint may yet be created (the restore applied first, or with it).
    if (!cp) return { ready: false, failed: false, reason: 'CheckpointNotFound', message: `KybernateCheckpoint ${ref.namespace}/${name} does not exist` };
    const status = cp.status ?? {};
    if (status.phase === 'Failed') {
      return { ready: false, failed: true, reason: 'CheckpointFailed', message: `KybernateCheckpoint ${name} failed${status.message ? `: ${status.message}` : ''}` };
    }
    if (status.phase !== 'Completed' || !status.checkpointRef) {
      return { ready: false, failed: false, reason: 'CheckpointNotCompleted', message: `KybernateCheckpoint ${name} is ${status.phase ?? 'Pending'}, not Completed` };
    }
    // Only a checkpoint kept in the node's containerd pins the restore pod to that node.
    const keptOnNode = (cp.spec?.storage?.type ?? 'containerd') === 'containerd';
    return {
      ready: true,
      checkpointImage: status.checkpointRef,
      podName: cp.spec.podName,
      ...(cp.spec.containerName ? { containerName: cp.spec.containerName } : {}),
      ...(keptOnNode && status.nodeName ? { nodeName: status.nodeName } : {}),
    };
  };
}
