import { CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION, WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint, KybernateWorkload } from '../../api/kybernate/types.ts';
import { validateKybernateWorkload } from '../../api/kybernate/validate.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject, CustomObjects } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import type { KindClient, KindClientParts } from '../kind/kind-client.ts';
import { KYBERNATE_CHECKPOINT, KYBERNATE_WORKLOAD } from './kinds.ts';
import { kybernateClient, podResource, type KybernateActivityDeps } from './kybernate-clients.ts';

export interface Owned {
  metadata?: { name?: string; uid?: string; deletionTimestamp?: string; annotations?: Record<string, string>; ownerReferences?: { uid?: string; controller?: boolean }[] };
}

export interface PodView extends Owned {
  status?: { phase?: string; reason?: string; message?: string; conditions?: { type: string; status: string }[] };
}

export const controlledBy = (obj: Owned, owner: ReadRef): boolean => !!obj.metadata?.ownerReferences?.some((o) => o.controller && o.uid === owner.uid);

/** What the workload's activities share: its kind's client and its checkpoints', on one connection. */
export interface WorkloadClients {
  workloads: KindClient<KybernateWorkload>;
  checkpoints: KindClient<KybernateCheckpoint>;
  objects: CustomObjects;
  informers: InformerSet | undefined;
}

export function workloadClients(deps: KybernateActivityDeps, parts?: KindClientParts): WorkloadClients {
  const workloads = kybernateClient<KybernateWorkload>(KYBERNATE_WORKLOAD, deps, parts);
  const checkpoints = kybernateClient<KybernateCheckpoint>(KYBERNATE_CHECKPOINT, deps, { objects: workloads.objects });
  return { workloads, checkpoints, objects: workloads.objects, informers: deps.informers };
}

/** A valid workload, defaults filled in (the workflow asks for its pod or checkpoint only after it validated). */
export async function validWorkload(w: WorkloadClients, ref: ReadRef): Promise<KybernateWorkload> {
  const checked = validateKybernateWorkload(await w.workloads.require(ref));
  if (!checked.valid) throw w.workloads.invalid(ref, checked.message);
  return { ...checked.workload, metadata: { ...checked.workload.metadata, uid: ref.uid } };
}

/** The workload's checkpoints (by its label, controlled by it): from the watched selection when it is filled. */
export async function checkpointsOf(w: WorkloadClients, ref: ReadRef): Promise<AnyObject[]> {
  const collection = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, namespace: ref.namespace };
  const all =
    w.informers?.selection(collection, WORKLOAD_LABEL) ??
    (await kubeCall('list KybernateCheckpoints', () => w.objects.list({ ...collection, labelSelector: `${WORKLOAD_LABEL}=${ref.name}` })));
  return all.filter((cp) => cp.metadata?.labels?.[WORKLOAD_LABEL] === ref.name && controlledBy(cp, ref));
}

/** A pod as stored, from the API server. */
export async function readPod(w: WorkloadClients, namespace: string, name: string): Promise<PodView | undefined> {
  return (await kubeCall('read pod', () => w.objects.get(podResource(namespace, name)))) as PodView | undefined;
}
