import { KYBERNATE_FIELD_MANAGER, RESTORE_FROM_ANNOTATION, workloadPodName } from '../../api/kybernate/constants.ts';
import type { WorkloadActivities, WorkloadPodState } from '../../contract/kybernate-workload-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { kubeCall } from '../../kube/errors.ts';
import { renderWorkloadPod } from '../../render/kybernate/render.ts';
import { podResource } from './kybernate-clients.ts';
import { controlledBy, readPod, validWorkload, type PodView, type WorkloadClients } from './workload-clients.ts';

function podState(pod: PodView, podName: string, owner: ReadRef, created: boolean): WorkloadPodState {
  const podUID = pod.metadata?.uid;
  if (!controlledBy(pod, owner)) return { podName, podUID, ready: false, reason: 'PodExists', message: `Pod ${owner.namespace}/${podName} exists and is not this workload's` };
  const phase = pod.status?.phase;
  const ready = phase === 'Running' && !!pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  return {
    podName,
    podUID,
    ready: ready && !pod.metadata?.deletionTimestamp,
    ...(phase ? { phase } : {}),
    ...(created ? { created } : {}),
    ...(pod.metadata?.annotations?.[RESTORE_FROM_ANNOTATION] ? { restoreFrom: pod.metadata.annotations[RESTORE_FROM_ANNOTATION] } : {}),
    ...(pod.metadata?.deletionTimestamp ? { deleting: true } : {}),
    ...(phase === 'Failed' ? { reason: pod.status?.reason ?? 'PodFailed', message: pod.status?.message ?? `Pod ${owner.namespace}/${podName} failed` } : {}),
  };
}

/** The workload's pod as it is, or created (restored from a checkpoint when asked); one of that name that is not ours is never taken over. */
export function applyWorkloadPod(w: WorkloadClients): WorkloadActivities['applyWorkloadPod'] {
  return async function applyWorkloadPod(ref, opts) {
    const workload = await validWorkload(w, ref);
    const podName = workloadPodName(workload);
    // From the API server, not the cache: a pod of that name that is not ours (unlabelled, so not in
    // the watched selection) must be seen, never taken over by the apply.
    const existing = await readPod(w, ref.namespace, podName);
    if (existing) return podState(existing, podName, ref, false);
    const body = renderWorkloadPod(workload, opts.restoreFrom !== undefined ? { restoreFrom: opts.restoreFrom, ...(opts.nodeName ? { nodeName: opts.nodeName } : {}) } : {});
    const created = (await kubeCall(`apply pods ${podName}`, () => w.objects.apply(podResource(ref.namespace, podName), body, KYBERNATE_FIELD_MANAGER))) as PodView;
    w.workloads.post(ref, {
      type: 'Normal',
      reason: opts.restoreFrom ? 'Restoring' : 'PodCreated',
      message: opts.restoreFrom ? `Created pod ${podName} to restore from ${opts.restoreFrom}` : `Created pod ${podName}`,
    });
    return podState(created, podName, ref, true);
  };
}

/** Deletes the workload's pod, only ours: with no uid known, the pod is read first and left alone unless the workload controls it. */
export function deleteWorkloadPod(w: WorkloadClients): WorkloadActivities['deleteWorkloadPod'] {
  return async function deleteWorkloadPod(ref, pod) {
    if (!pod.podUID) {
      const existing = await readPod(w, ref.namespace, pod.podName);
      if (!existing || !controlledBy(existing, ref)) return 'absent';
      pod = { ...pod, podUID: existing.metadata?.uid };
    }
    const result = await kubeCall(`delete pods ${pod.podName}`, () => w.objects.remove(podResource(ref.namespace, pod.podName), pod.podUID));
    if (result !== 'absent') w.workloads.post(ref, { type: 'Normal', reason: 'PodDeleted', message: `Deleted pod ${pod.podName}` });
    return result;
  };
}
