import type { KubeConfig } from '@kubernetes/client-node';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { ARTIFACTS_FINALIZER, CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_API_VERSION, KYBERNATE_FIELD_MANAGER, KYBERNATE_GROUP, KYBERNATE_VERSION, READY_CONDITION } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import { validateKybernateCheckpoint } from '../../api/kybernate/validate.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { containerIdFromStatus } from '../../containerd/container-id.ts';
import type { CheckpointActivities } from '../../contract/kybernate-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { CustomObjects, type AnyObject, type ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { EventRecorder, type InvolvedObject } from '../../kube/events.ts';
import { setFinalizer } from '../../kube/finalizers.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { readLive } from '../../kube/read-live.ts';
import { kubeNow } from '../../kube/time.ts';
import { withTransitionTimes } from '../status/conditions.ts';

export interface CheckpointActivityDeps {
  kc: KubeConfig;
  informers?: InformerSet;
}

interface PodView {
  spec?: { nodeName?: string; containers?: { name: string }[] };
  status?: { phase?: string; containerStatuses?: { name: string; containerID?: string; state?: { running?: object } }[] };
}

const checkpointResource = (ref: Pick<ReadRef, 'namespace' | 'name'>): ResourceRef => ({ group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, namespace: ref.namespace, name: ref.name });
const involved = (ref: ReadRef): InvolvedObject => ({ apiVersion: KYBERNATE_API_VERSION, kind: CHECKPOINT_KIND, namespace: ref.namespace, name: ref.name, uid: ref.uid });

/** The checkpoint's cluster-side steps: reading it, finding its pod's container, status, finalizer, events. */
export function createCheckpointActivities(deps: CheckpointActivityDeps): CheckpointActivities {
  const objects = new CustomObjects(deps.kc);
  const recorder = new EventRecorder(deps.kc, KYBERNATE_FIELD_MANAGER);
  const read = (ref: ReadRef, fresh = false) => readLive(objects, fresh ? undefined : deps.informers, checkpointResource(ref), ref);
  const live = async (ref: ReadRef) => (await kubeCall('read KybernateCheckpoint', () => read(ref))) as unknown as KybernateCheckpoint | undefined;

  return {
    async assessCheckpoint(ref) {
      const cp = await live(ref);
      if (!cp) return { found: false };
      const m = cp.metadata;
      const seen = {
        found: true,
        generation: m.generation,
        resourceVersion: m.resourceVersion,
        hasFinalizer: (m.finalizers ?? []).includes(ARTIFACTS_FINALIZER),
        ...(cp.status?.phase ? { phase: cp.status.phase } : {}),
        ...(cp.status?.checkpointRef ? { checkpointRef: cp.status.checkpointRef } : {}),
        ...(cp.status?.nodeName ? { nodeName: cp.status.nodeName } : {}),
      };
      if (m.deletionTimestamp) return { ...seen, deleting: true, deletionTimestamp: m.deletionTimestamp };
      if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { ...seen, paused: true };
      const checked = validateKybernateCheckpoint(cp);
      if (!checked.valid) {
        recorder.post(involved(ref), { type: 'Warning', reason: 'InvalidSpec', message: checked.message });
        return { ...seen, invalid: checked.message };
      }
      // Before anything exists on a node that deletion must remove.
      if (!seen.hasFinalizer) await kubeCall('add finalizer', () => setFinalizer(objects, checkpointResource(ref), (fresh) => read(ref, fresh), ARTIFACTS_FINALIZER, true));
      const { spec } = checked.checkpoint;
      return { ...seen, hasFinalizer: true, leaveRunning: spec.leaveRunning, timeoutSeconds: spec.timeout, ...(spec.gpu.enabled && spec.gpu.pluginPath ? { gpuPluginPath: spec.gpu.pluginPath } : {}) };
    },

    async resolveCheckpointPod(ref) {
      const cp = await live(ref);
      const podName = cp?.spec?.podName ?? '';
      const pod = (await kubeCall('read pod', () => objects.get({ group: '', version: 'v1', plural: 'pods', namespace: ref.namespace, name: podName }))) as PodView | undefined;
      if (!pod) return { ok: false, reason: 'PodNotFound', message: `Pod ${ref.namespace}/${podName} does not exist` };
      if (pod.status?.phase !== 'Running') return { ok: false, reason: 'PodNotRunning', message: `Pod ${ref.namespace}/${podName} is ${pod.status?.phase ?? 'not running'}, not Running` };
      const nodeName = pod.spec?.nodeName;
      if (!nodeName) return { ok: false, reason: 'PodNotScheduled', message: `Pod ${ref.namespace}/${podName} has no node` };
      const containerName = cp?.spec?.containerName ?? pod.spec?.containers?.[0]?.name ?? '';
      const status = pod.status.containerStatuses?.find((c) => c.name === containerName);
      if (!status?.containerID || !status.state?.running) {
        return { ok: false, reason: 'ContainerNotFound', message: `Container '${containerName}' of pod ${ref.namespace}/${podName} is not running` };
      }
      try {
        return { ok: true, nodeName, containerName, containerId: containerIdFromStatus(status.containerID) };
      } catch (err) {
        return { ok: false, reason: 'ContainerNotFound', message: (err as Error).message };
      }
    },

    async writeCheckpointStatus(ref, input) {
      const cp = await live(ref);
      if (!cp) return;
      const generation = cp.metadata.generation ?? 0;
      const { ready, ...fields } = input;
      const conditions = withTransitionTimes(cp.status?.conditions as never, [{ type: READY_CONDITION, ...ready }], kubeNow(), generation);
      const status = { ...fields, conditions, observedGeneration: generation };
      const current = cp.status ?? {};
      if (jsonEqual(current, { ...current, ...status })) return;
      await kubeCall('write KybernateCheckpoint status', () =>
        objects.applyStatus(checkpointResource(ref), { apiVersion: KYBERNATE_API_VERSION, kind: CHECKPOINT_KIND, metadata: { name: ref.name, namespace: ref.namespace, uid: ref.uid }, status } as AnyObject, KYBERNATE_FIELD_MANAGER),
      );
    },

    async removeCheckpointFinalizer(ref) {
      await kubeCall('remove finalizer', () => setFinalizer(objects, checkpointResource(ref), (fresh) => read(ref, fresh), ARTIFACTS_FINALIZER, false));
    },

    async recordCheckpointEvent(ref, event) {
      await recorder.record(involved(ref), event);
    },
  };
}
