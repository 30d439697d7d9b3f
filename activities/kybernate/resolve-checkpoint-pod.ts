import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import { containerIdFromStatus } from '../../containerd/container-id.ts';
import type { CheckpointActivities } from '../../contract/kybernate-activities.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { KindClient } from '../kind/kind-client.ts';
import { podResource } from './kybernate-clients.ts';

interface PodView {
  spec?: { nodeName?: string; containers?: { name: string }[] };
  status?: { phase?: string; containerStatuses?: { name: string; containerID?: string; state?: { running?: object } }[] };
}

/** The node and containerd id of the container to dump: it must be running, in a running, scheduled pod. */
export function resolveCheckpointPod(checkpoints: KindClient<KybernateCheckpoint>): CheckpointActivities['resolveCheckpointPod'] {
  return async function resolveCheckpointPod(ref) {
    const cp = await checkpoints.read(ref);
    const podName = cp?.spec?.podName ?? '';
    const pod = (await kubeCall('read pod', () => checkpoints.objects.get(podResource(ref.namespace, podName)))) as PodView | undefined;
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
  };
}
