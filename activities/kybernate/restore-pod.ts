import { KYBERNATE_FIELD_MANAGER, restorePodName } from '../../api/kybernate/constants.ts';
import type { RestoreActivities, RestorePodState } from '../../contract/kybernate-restore-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { kubeCall } from '../../kube/errors.ts';
import { renderRestorePod } from '../../render/kybernate/render.ts';
import { podResource } from './kybernate-clients.ts';
import { validRestore, type RestoreClients } from './restore-clients.ts';

interface PodView {
  metadata?: { uid?: string; ownerReferences?: { uid?: string; controller?: boolean }[] };
  status?: { phase?: string; reason?: string; message?: string; conditions?: { type: string; status: string }[] };
}

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

/** The restore's pod as it is, or created from the checkpoint image (with the checkpointed pod's spec when that pod still exists). */
export function applyRestorePod(r: RestoreClients): RestoreActivities['applyRestorePod'] {
  return async function applyRestorePod(ref, source) {
    const restore = await validRestore(r, ref);
    if (!restore) throw new Error(`KybernateRestore ${ref.namespace}/${ref.name} is gone`);
    const podName = restorePodName(restore);
    const existing = (await kubeCall('read pod', () => r.objects.get(podResource(ref.namespace, podName)))) as PodView | undefined;
    if (existing) return podState(existing, podName, ref);
    const pod = source.podName ? await kubeCall('read pod', () => r.objects.get(podResource(ref.namespace, source.podName!))) : undefined;
    const body = renderRestorePod(restore, {
      checkpointImage: source.checkpointImage,
      ...(pod ? { pod } : {}),
      ...(source.containerName ? { containerName: source.containerName } : {}),
      ...(source.nodeName ? { nodeName: source.nodeName } : {}),
    });
    const created = (await kubeCall(`apply pods ${podName}`, () => r.objects.apply(podResource(ref.namespace, podName), body, KYBERNATE_FIELD_MANAGER))) as PodView;
    return podState(created, podName, ref);
  };
}
