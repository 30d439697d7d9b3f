import type { KubeConfig } from '@kubernetes/client-node';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import {
  CHECKPOINT_KIND,
  CHECKPOINT_PLURAL,
  KYBERNATE_API_VERSION,
  KYBERNATE_FIELD_MANAGER,
  KYBERNATE_GROUP,
  KYBERNATE_VERSION,
  READY_CONDITION,
  RESTORE_FROM_ANNOTATION,
  SUSPEND_DEGRADED_CONDITION,
  WORKLOAD_KIND,
  WORKLOAD_LABEL,
  workloadPodName,
} from '../../api/kybernate/constants.ts';
import { DEFAULT_CHECKPOINT_TIMEOUT } from '../../api/kybernate/defaults.ts';
import { parseDuration } from '../../api/kybernate/duration.ts';
import type { KybernateCheckpoint, KybernateWorkload } from '../../api/kybernate/types.ts';
import { validateKybernateWorkload } from '../../api/kybernate/validate.ts';
import type { IdleMode, WorkloadActivities, WorkloadPodState } from '../../contract/kybernate-workload-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject, ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { renderWorkloadPod } from '../../render/kybernate/render.ts';
import { KindClient } from '../kind/kind-client.ts';
import { KYBERNATE_CHECKPOINT, KYBERNATE_WORKLOAD } from './kinds.ts';

export interface WorkloadActivityDeps {
  kc: KubeConfig;
  informers?: InformerSet;
}

interface Owned {
  metadata?: { name?: string; uid?: string; deletionTimestamp?: string; annotations?: Record<string, string>; ownerReferences?: { uid?: string; controller?: boolean }[] };
}

interface PodView extends Owned {
  status?: { phase?: string; reason?: string; message?: string; conditions?: { type: string; status: string }[] };
}

const podResource = (namespace: string, name: string): ResourceRef => ({ group: '', version: 'v1', plural: 'pods', namespace, name });
const controlledBy = (obj: Owned, owner: ReadRef) => !!obj.metadata?.ownerReferences?.some((o) => o.controller && o.uid === owner.uid);

/** How the workload goes to zero when idle (see IdleMode). */
export function idleModeOf(spec: KybernateWorkload['spec']): IdleMode {
  if (spec.suspend.enabled) return 'checkpoint';
  if (spec.scaleToZero.enabled && spec.scaleToZero.minReplicas === 0) return 'cold';
  return 'never';
}

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

/** The workload's cluster-side steps: reading it, its pod, its suspend checkpoints, status. */
export function createWorkloadActivities(deps: WorkloadActivityDeps): WorkloadActivities {
  const workloads = new KindClient<KybernateWorkload>(KYBERNATE_WORKLOAD, { kc: deps.kc, informers: deps.informers, fieldManager: KYBERNATE_FIELD_MANAGER });
  const { objects } = workloads;
  const checkpoints = new KindClient<KybernateCheckpoint>(KYBERNATE_CHECKPOINT, { kc: deps.kc, informers: deps.informers, fieldManager: KYBERNATE_FIELD_MANAGER, objects });
  /** A valid workload, defaults filled in (the workflow asks for its pod or checkpoint only after it validated). */
  const valid = async (ref: ReadRef): Promise<KybernateWorkload> => {
    const checked = validateKybernateWorkload(await workloads.require(ref));
    if (!checked.valid) throw workloads.invalid(ref, checked.message);
    return { ...checked.workload, metadata: { ...checked.workload.metadata, uid: ref.uid } };
  };
  /** The workload's checkpoints (by its label, controlled by it): from the watched selection when it is filled. */
  const checkpointsOf = async (ref: ReadRef): Promise<AnyObject[]> => {
    const collection = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, namespace: ref.namespace };
    const all =
      deps.informers?.selection(collection, WORKLOAD_LABEL) ??
      (await kubeCall('list KybernateCheckpoints', () => objects.list({ ...collection, labelSelector: `${WORKLOAD_LABEL}=${ref.name}` })));
    return all.filter((cp) => cp.metadata?.labels?.[WORKLOAD_LABEL] === ref.name && controlledBy(cp, ref));
  };
  const readPod = async (namespace: string, name: string) => (await kubeCall('read pod', () => objects.get(podResource(namespace, name)))) as PodView | undefined;

  return {
    async assessWorkload(ref, opts = {}) {
      const workload = await workloads.read(ref);
      if (!workload) return { found: false };
      const m = workload.metadata;
      const seen = {
        found: true,
        generation: m.generation,
        resourceVersion: m.resourceVersion,
        podName: workloadPodName(workload),
        ...(opts.earlier ? { earlier: { suspendedCheckpoints: workload.status?.suspendedCheckpoints ?? 0, lastSuspend: lastSuspendNumber(await checkpointsOf(ref), ref.name) } } : {}),
      };
      if (m.deletionTimestamp) return { ...seen, deleting: true };
      if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { ...seen, paused: true };
      const checked = validateKybernateWorkload(workload);
      if (!checked.valid) {
        workloads.refuse(ref, checked.message);
        return { ...seen, invalid: checked.message };
      }
      const { spec } = checked.workload;
      const idleTimeoutMs = parseDuration(spec.suspend.idleTimeout);
      return { ...seen, idleMode: idleModeOf(spec), ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) };
    },

    async applyWorkloadPod(ref, opts) {
      const workload = await valid(ref);
      const podName = workloadPodName(workload);
      // From the API server, not the cache: a pod of that name that is not ours (unlabelled, so not in
      // the watched selection) must be seen, never taken over by the apply.
      const existing = await readPod(ref.namespace, podName);
      if (existing) return podState(existing, podName, ref, false);
      const body = renderWorkloadPod(workload, opts.restoreFrom !== undefined ? { restoreFrom: opts.restoreFrom, ...(opts.nodeName ? { nodeName: opts.nodeName } : {}) } : {});
      const created = (await kubeCall(`apply pods ${podName}`, () => objects.apply(podResource(ref.namespace, podName), body, KYBERNATE_FIELD_MANAGER))) as PodView;
      workloads.post(ref, {
        type: 'Normal',
        reason: opts.restoreFrom ? 'Restoring' : 'PodCreated',
        message: opts.restoreFrom ? `Created pod ${podName} to restore from ${opts.restoreFrom}` : `Created pod ${podName}`,
      });
      return podState(created, podName, ref, true);
    },

    async deleteWorkloadPod(ref, pod) {
      // Only ours: with no uid known, the pod is read first and left alone unless the workload controls it.
      if (!pod.podUID) {
        const existing = await readPod(ref.namespace, pod.podName);
        if (!existing || !controlledBy(existing, ref)) return 'absent';
        pod = { ...pod, podUID: existing.metadata?.uid };
      }
      const result = await kubeCall(`delete pods ${pod.podName}`, () => objects.remove(podResource(ref.namespace, pod.podName), pod.podUID));
      if (result !== 'absent') workloads.post(ref, { type: 'Normal', reason: 'PodDeleted', message: `Deleted pod ${pod.podName}` });
      return result;
    },

    async applySuspendCheckpoint(ref, { name, podName }) {
      const resource = checkpoints.resource({ namespace: ref.namespace, name });
      let cp = await checkpoints.get(resource);
      let created = false;
      if (!cp) {
        const workload = await valid(ref);
        cp = await checkpoints.apply(resource, suspendCheckpoint(workload, name, podName));
        created = true;
        workloads.post(ref, { type: 'Normal', reason: 'Suspending', message: `Created KybernateCheckpoint ${name} of idle pod ${podName}` });
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
    },

    async pruneSuspendCheckpoints(ref, keep) {
      const mine = (await kubeCall('list KybernateCheckpoints', () =>
        objects.list({ group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, namespace: ref.namespace, labelSelector: `${WORKLOAD_LABEL}=${ref.name}` }),
      ));
      let deleted = 0;
      for (const cp of mine) {
        const name = cp.metadata?.name ?? '';
        if (keep.includes(name) || !controlledBy(cp, ref) || cp.metadata?.deletionTimestamp) continue;
        // Its finalizer removes the image on its node first (the checkpoint's own workflow, bounded).
        if ((await kubeCall(`delete KybernateCheckpoint ${name}`, () => objects.remove(checkpoints.resource({ namespace: ref.namespace, name }), cp.metadata?.uid))) !== 'absent') deleted++;
      }
      return deleted;
    },

    async writeWorkloadStatus(ref, input) {
      const workload = await workloads.read(ref);
      if (!workload) return;
      const { ready, degraded, ...fields } = input;
      await workloads.writeConditions(ref, workload, fields, [
        { type: READY_CONDITION, ...ready },
        { type: SUSPEND_DEGRADED_CONDITION, ...degraded },
      ]);
    },
  };
}
