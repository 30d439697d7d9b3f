import type { KubeConfig } from '@kubernetes/client-node';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { KYBERNATE_FIELD_MANAGER, READY_CONDITION, restorePodName } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint, KybernateRestore } from '../../api/kybernate/types.ts';
import { validateKybernateRestore } from '../../api/kybernate/validate.ts';
import type { RestoreActivities, RestorePodState } from '../../contract/kybernate-restore-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { renderRestorePod } from '../../render/kybernate/render.ts';
import { KindClient } from '../kind/kind-client.ts';
import { KYBERNATE_CHECKPOINT, KYBERNATE_RESTORE } from './kinds.ts';

export interface RestoreActivityDeps {
  kc: KubeConfig;
  informers?: InformerSet;
}

interface PodView {
  metadata?: { uid?: string; ownerReferences?: { uid?: string; controller?: boolean }[] };
  status?: { phase?: string; reason?: string; message?: string; conditions?: { type: string; status: string }[] };
}

const podResource = (namespace: string, name: string): ResourceRef => ({ group: '', version: 'v1', plural: 'pods', namespace, name });

/** A pod of the restore's name that the restore does not control is someone else's: never taken over. */
function podState(pod: PodView, podName: string, owner: ReadRef): RestorePodState {
  const podUID = pod.metadata?.uid;
  if (!pod.metadata?.ownerReferences?.some((o) => o.controller && o.uid === owner.uid)) {
    return { podName, podUID, ready: false, reason: 'PodExists', message: `Pod ${owner.namespace}/${podName} exists and is not this restore's` };
  }
  const phase = pod.status?.phase;
  const ready = phase === 'Running' && !!pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  return {
    podName,
    podUID,
    ready,
    ...(phase ? { phase } : {}),
    ...(phase === 'Failed' ? { reason: pod.status?.reason ?? 'PodFailed', message: pod.status?.message ?? `Pod ${owner.namespace}/${podName} failed` } : {}),
  };
}

/** The restore's cluster-side steps: reading it and its checkpoint, creating its pod, status. */
export function createRestoreActivities(deps: RestoreActivityDeps): RestoreActivities {
  const restores = new KindClient<KybernateRestore>(KYBERNATE_RESTORE, { kc: deps.kc, informers: deps.informers, fieldManager: KYBERNATE_FIELD_MANAGER });
  const { objects } = restores;
  const checkpoints = new KindClient<KybernateCheckpoint>(KYBERNATE_CHECKPOINT, { kc: deps.kc, informers: deps.informers, fieldManager: KYBERNATE_FIELD_MANAGER, objects });
  /** A valid restore, defaults filled in (the workflow asked for the source or the pod only after it validated). */
  const valid = async (ref: ReadRef): Promise<KybernateRestore | undefined> => {
    const restore = await restores.read(ref);
    const checked = restore && validateKybernateRestore(restore);
    if (!checked) return undefined;
    if (!checked.valid) throw restores.invalid(ref, checked.message);
    return { ...checked.restore, metadata: { ...checked.restore.metadata, uid: ref.uid } };
  };

  return {
    async assessRestore(ref) {
      const restore = await restores.read(ref);
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
        restores.refuse(ref, checked.message);
        return { ...seen, invalid: checked.message };
      }
      const { spec } = checked.restore;
      return { ...seen, timeoutSeconds: spec.timeout, ...(spec.checkpointRef ? { checkpointRef: spec.checkpointRef } : {}) };
    },

    async resolveRestoreSource(ref) {
      const restore = await valid(ref);
      if (!restore) return { ready: false, failed: false, reason: 'CheckpointNotFound', message: `KybernateRestore ${ref.namespace}/${ref.name} is gone` };
      const { checkpointImage, checkpointRef } = restore.spec;
      if (checkpointImage) return { ready: true, checkpointImage };
      const name = checkpointRef ?? '';
      // From the watched cache when it covers the object (the watch that woke the workflow filled it), else the API server.
      const cp = await checkpoints.byName(ref.namespace, name);
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
    },

    async applyRestorePod(ref, source) {
      const restore = await valid(ref);
      if (!restore) throw new Error(`KybernateRestore ${ref.namespace}/${ref.name} is gone`);
      const podName = restorePodName(restore);
      const existing = (await kubeCall('read pod', () => objects.get(podResource(ref.namespace, podName)))) as PodView | undefined;
      if (existing) return podState(existing, podName, ref);
      // The checkpointed pod, when it still exists: the restore pod runs the same spec.
      const pod = source.podName ? await kubeCall('read pod', () => objects.get(podResource(ref.namespace, source.podName!))) : undefined;
      const body = renderRestorePod(restore, {
        checkpointImage: source.checkpointImage,
        ...(pod ? { pod } : {}),
        ...(source.containerName ? { containerName: source.containerName } : {}),
        ...(source.nodeName ? { nodeName: source.nodeName } : {}),
      });
      const created = (await kubeCall(`apply pods ${podName}`, () => objects.apply(podResource(ref.namespace, podName), body, KYBERNATE_FIELD_MANAGER))) as PodView;
      return podState(created, podName, ref);
    },

    async writeRestoreStatus(ref, input) {
      const restore = await restores.read(ref);
      if (!restore) return;
      const { ready, ...fields } = input;
      await restores.writeConditions(ref, restore, fields, [{ type: READY_CONDITION, ...ready }]);
    },
  };
}
