import type { KubeConfig } from '@kubernetes/client-node';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { CHECKPOINT_PLURAL, KYBERNATE_API_VERSION, KYBERNATE_FIELD_MANAGER, KYBERNATE_GROUP, KYBERNATE_VERSION, READY_CONDITION, RESTORE_KIND, RESTORE_PLURAL, restorePodName } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint, KybernateRestore } from '../../api/kybernate/types.ts';
import { validateKybernateRestore } from '../../api/kybernate/validate.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import type { RestoreActivities, RestorePodState } from '../../contract/kybernate-restore-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { CustomObjects, type AnyObject, type ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { EventRecorder, type InvolvedObject } from '../../kube/events.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { readLive } from '../../kube/read-live.ts';
import { kubeNow } from '../../kube/time.ts';
import { withTransitionTimes } from '../status/conditions.ts';
import { renderRestorePod } from '../../render/kybernate/render.ts';

export interface RestoreActivityDeps {
  kc: KubeConfig;
  informers?: InformerSet;
}

interface PodView {
  metadata?: { uid?: string; ownerReferences?: { uid?: string; controller?: boolean }[] };
  status?: { phase?: string; reason?: string; message?: string; conditions?: { type: string; status: string }[] };
}

const restoreResource = (ref: Pick<ReadRef, 'namespace' | 'name'>): ResourceRef => ({ group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: RESTORE_PLURAL, namespace: ref.namespace, name: ref.name });
const checkpointResource = (namespace: string, name: string): ResourceRef => ({ group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, namespace, name });
const podResource = (namespace: string, name: string): ResourceRef => ({ group: '', version: 'v1', plural: 'pods', namespace, name });
const involved = (ref: ReadRef): InvolvedObject => ({ apiVersion: KYBERNATE_API_VERSION, kind: RESTORE_KIND, namespace: ref.namespace, name: ref.name, uid: ref.uid });

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
  const objects = new CustomObjects(deps.kc);
  const recorder = new EventRecorder(deps.kc, KYBERNATE_FIELD_MANAGER);
  const live = async (ref: ReadRef) => (await kubeCall('read KybernateRestore', () => readLive(objects, deps.informers, restoreResource(ref), ref))) as unknown as KybernateRestore | undefined;
  /** A valid restore, defaults filled in (the workflow asked for the source or the pod only after it validated). */
  const valid = async (ref: ReadRef): Promise<KybernateRestore | undefined> => {
    const restore = await live(ref);
    const checked = restore && validateKybernateRestore(restore);
    if (!checked) return undefined;
    if (!checked.valid) throw new Error(`KybernateRestore ${ref.namespace}/${ref.name} is invalid: ${checked.message}`);
    return { ...checked.restore, metadata: { ...checked.restore.metadata, uid: ref.uid } };
  };
  /** From the watched cache when it covers the object (the watch that woke the workflow filled it), else the API server. */
  const readCheckpoint = async (namespace: string, name: string) => {
    const resource = checkpointResource(namespace, name);
    const cached = deps.informers?.cached(resource);
    const cp = cached?.known ? cached.object : await kubeCall('read KybernateCheckpoint', () => objects.get(resource));
    return cp as unknown as KybernateCheckpoint | undefined;
  };

  return {
    async assessRestore(ref) {
      const restore = await live(ref);
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
        recorder.post(involved(ref), { type: 'Warning', reason: 'InvalidSpec', message: checked.message });
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
      const cp = await readCheckpoint(ref.namespace, name);
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
      const restore = await live(ref);
      if (!restore) return;
      const generation = restore.metadata.generation ?? 0;
      const { ready, ...fields } = input;
      const conditions = withTransitionTimes(restore.status?.conditions as never, [{ type: READY_CONDITION, ...ready }], kubeNow(), generation);
      const status = { ...fields, conditions, observedGeneration: generation };
      const current = restore.status ?? {};
      if (jsonEqual(current, { ...current, ...status })) return;
      await kubeCall('write KybernateRestore status', () =>
        objects.applyStatus(restoreResource(ref), { apiVersion: KYBERNATE_API_VERSION, kind: RESTORE_KIND, metadata: { name: ref.name, namespace: ref.namespace, uid: ref.uid }, status } as AnyObject, KYBERNATE_FIELD_MANAGER),
      );
    },
  };
}
