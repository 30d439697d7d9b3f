import type { KubeConfig } from '@kubernetes/client-node';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { ARTIFACTS_FINALIZER, KYBERNATE_FIELD_MANAGER, READY_CONDITION } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import { validateKybernateCheckpoint } from '../../api/kybernate/validate.ts';
import { containerIdFromStatus } from '../../containerd/container-id.ts';
import type { CheckpointActivities } from '../../contract/kybernate-activities.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { KindClient } from '../kind/kind-client.ts';
import { KYBERNATE_CHECKPOINT } from './kinds.ts';

export interface CheckpointActivityDeps {
  kc: KubeConfig;
  informers?: InformerSet;
}

interface PodView {
  spec?: { nodeName?: string; containers?: { name: string }[] };
  status?: { phase?: string; containerStatuses?: { name: string; containerID?: string; state?: { running?: object } }[] };
}


/** The checkpoint's cluster-side steps: reading it, finding its pod's container, status, finalizer, events. */
export function createCheckpointActivities(deps: CheckpointActivityDeps): CheckpointActivities {
  const checkpoints = new KindClient<KybernateCheckpoint>(KYBERNATE_CHECKPOINT, { kc: deps.kc, informers: deps.informers, fieldManager: KYBERNATE_FIELD_MANAGER });
  const { objects } = checkpoints;

  return {
    async assessCheckpoint(ref) {
      const cp = await checkpoints.read(ref);
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
        checkpoints.refuse(ref, checked.message);
        return { ...seen, invalid: checked.message };
      }
      // Before anything exists on a node that deletion must remove.
      if (!seen.hasFinalizer) await checkpoints.setFinalizer(ref, ARTIFACTS_FINALIZER, true);
      const { spec } = checked.checkpoint;
      return { ...seen, hasFinalizer: true, leaveRunning: spec.leaveRunning, timeoutSeconds: spec.timeout, ...(spec.gpu.enabled && spec.gpu.pluginPath ? { gpuPluginPath: spec.gpu.pluginPath } : {}) };
    },

    async resolveCheckpointPod(ref) {
      const cp = await checkpoints.read(ref);
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
      const cp = await checkpoints.read(ref);
      if (!cp) return;
      const { ready, ...fields } = input;
      await checkpoints.writeConditions(ref, cp, fields, [{ type: READY_CONDITION, ...ready }]);
    },

    async removeCheckpointFinalizer(ref) {
      await checkpoints.setFinalizer(ref, ARTIFACTS_FINALIZER, false);
    },

    async recordCheckpointEvent(ref, event) {
      await checkpoints.record(ref, event);
    },
  };
}
