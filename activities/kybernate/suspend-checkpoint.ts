import { CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_API_VERSION, KYBERNATE_GROUP, KYBERNATE_VERSION, WORKLOAD_KIND, WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import { DEFAULT_CHECKPOINT_TIMEOUT } from '../../api/kybernate/defaults.ts';
import type { KybernateWorkload } from '../../api/kybernate/types.ts';
import type { WorkloadActivities } from '../../contract/kybernate-workload-activities.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { controlledBy, validWorkload, type Owned, type WorkloadClients } from './workload-clients.ts';

/** A template asking for an NVIDIA GPU is checkpointed with CRIU's CUDA plugin (the node worker's plugin directory). */
export function wantsGpu(template: Record<string, unknown>): boolean {
  const spec = template.spec as { containers?: { resources?: { limits?: Record<string, unknown>; requests?: Record<string, unknown> } }[] } | undefined;
  return (spec?.containers ?? []).some((c) => Object.keys({ ...c.resources?.limits, ...c.resources?.requests }).some((k) => k === 'nvidia.com/gpu'));
}

/** The KybernateCheckpoint of one suspend: the workload's pod, the task exiting with the dump, owned and labelled by the workload. */
export function suspendCheckpoint(workload: KybernateWorkload, name: string, podName: string): AnyObject {
  const { metadata, spec } = workload;
  return {
    apiVersion: KYBERNATE_API_VERSION,
    kind: CHECKPOINT_KIND,
    metadata: {
      name,
      namespace: metadata.namespace,
      labels: { [WORKLOAD_LABEL]: metadata.name },
      ownerReferences: [{ apiVersion: KYBERNATE_API_VERSION, kind: WORKLOAD_KIND, name: metadata.name, uid: metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      podName,
      // The pod is removed right after the dump: nothing is gained by letting it run on.
      leaveRunning: false,
      timeout: DEFAULT_CHECKPOINT_TIMEOUT,
      storage: { ...spec.suspend.storage },
      gpu: { enabled: wantsGpu(spec.template) },
    },
  };
}

/** The highest n of the checkpoints named `<workload>-suspend-<n>`; 0 when there are none. */
export function lastSuspendNumber(checkpoints: readonly AnyObject[], workload: string): number {
  const prefix = `${workload}-suspend-`;
  return checkpoints.reduce((max, cp) => {
    const name = cp.metadata?.name ?? '';
    const n = name.startsWith(prefix) && /^[0-9]+$/.test(name.slice(prefix.length)) ? Number(name.slice(prefix.length)) : 0;
    return Math.max(max, n);
  }, 0);
}

/** The suspend's KybernateCheckpoint, created once; what its status says so far (none of it for one that is not this workload's). */
export function applySuspendCheckpoint(w: WorkloadClients): WorkloadActivities['applySuspendCheckpoint'] {
  return async function applySuspendCheckpoint(ref, { name, podName }) {
    const resource = w.checkpoints.resource({ namespace: ref.namespace, name });
    let cp = await w.checkpoints.get(resource);
    let created = false;
    if (!cp) {
      const workload = await validWorkload(w, ref);
      cp = await w.checkpoints.apply(resource, suspendCheckpoint(workload, name, podName));
      created = true;
      w.workloads.post(ref, { type: 'Normal', reason: 'Suspending', message: `Created KybernateCheckpoint ${name} of idle pod ${podName}` });
    }
    if (!controlledBy(cp as Owned, ref)) return { foreign: true, message: `KybernateCheckpoint ${ref.namespace}/${name} exists and is not this workload's` };
    const status = cp.status ?? {};
    const keptOnNode = (cp.spec?.storage?.type ?? 'containerd') === 'containerd';
    return {
      foreign: false,
      ...(keptOnNode && status.nodeName ? { nodeName: status.nodeName } : {}),
      timeoutSeconds: typeof cp.spec?.timeout === 'number' ? cp.spec.timeout : DEFAULT_CHECKPOINT_TIMEOUT,
      ...(status.phase ? { phase: status.phase } : {}),
      ...(status.checkpointRef ? { checkpointRef: status.checkpointRef } : {}),
      ...(status.message ? { message: status.message } : {}),
      ...(created ? { created } : {}),
    };
  };
}

/** Deletes the workload's suspend checkpoints but those kept; returns how many it deleted. */
export function pruneSuspendCheckpoints(w: WorkloadClients): WorkloadActivities['pruneSuspendCheckpoints'] {
  return async function pruneSuspendCheckpoints(ref, keep) {
    const mine = (await kubeCall('list KybernateCheckpoints', () =>
      w.objects.list({ group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, namespace: ref.namespace, labelSelector: `${WORKLOAD_LABEL}=${ref.name}` }),
    ));
    let deleted = 0;
    for (const cp of mine) {
      const name = cp.metadata?.name ?? '';
      if (keep.includes(name) || !controlledBy(cp, ref) || cp.metadata?.deletionTimestamp) continue;
      // Its finalizer removes the image on its node first (the checkpoint's own workflow, bounded).
      if ((await kubeCall(`delete KybernateCheckpoint ${name}`, () => w.objects.remove(w.checkpoints.resource({ namespace: ref.namespace, name }), cp.metadata?.uid))) !== 'absent') deleted++;
    }
    return deleted;
  };
}
