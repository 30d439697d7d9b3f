// The pods the Kybernate kinds create, as the objects to create: the restore pod of a KybernateRestore
// (restore variant C, research "Kybernate" 2b: a new pod, annotated kybernate.io/restore-from, that a
// node runtime restores from the checkpoint instead of starting fresh) and the pod of a
// KybernateWorkload. Pure functions: the same input gives byte-identical objects (templates are read
// with their keys sorted), so the workflows and `kubeairunway render` print and create the same pods.
// A KybernateCheckpoint creates no object: it acts on a pod that exists.
//
// Choices where the seed leaves one:
// - The restore pod runs the checkpointed pod's spec when it can still be read (the runtime restores
//   into the same containers, images and mounts), not its labels: a copy of those would join the
//   original's Services and selectors unasked. Without the pod, one container whose image is the
//   checkpoint image, named like the checkpointed container: how CRI runtimes that restore take a
//   checkpoint (CRI-O; containerd's CRI since containerd/containerd#10365).
// - targetPod.resources replace the restored container's requests and limits; targetPod.nodeSelector
//   replaces the pod's. Without a nodeSelector, a checkpoint kept in one node's containerd pins the pod
//   to that node (a required node affinity on its name, as DaemonSets do): no other node has it.
//   The original ran there, so its own node affinity held there and is safe to replace.
// - Fields a new pod cannot carry over are dropped: nodeName (it is scheduled again) and
//   ephemeralContainers (refused on create).

import {
  KYBERNATE_API_VERSION,
  RESTORE_FROM_ANNOTATION,
  RESTORE_KIND,
  RESTORE_LABEL,
  WORKLOAD_KIND,
  WORKLOAD_LABEL,
  restorePodName,
  workloadPodName,
} from '../../api/kybernate/constants.ts';
import type { KybernateMetadata, KybernateRestore, KybernateWorkload, ResourceRequirements } from '../../api/kybernate/types.ts';
import { sortKeysDeep } from '../../api/crd/serialize.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';

type Obj = Record<string, unknown>;

/** The container name of the restore pod built from the checkpoint image alone, when the checkpoint names none. */
export const RESTORED_CONTAINER = 'restored';

/** What the restore pod is made from, as the controller (or the offline CLI) found it. */
export interface RestoreSource {
  /**
   * The checkpoint image the node runtime restores from, the value of kybernate.io/restore-from:
   * spec.checkpointImage, or the referenced KybernateCheckpoint's status.checkpointRef.
   */
  checkpointImage: string;
  /** The checkpointed pod, when it can still be read: the restore pod runs its spec. */
  pod?: AnyObject;
  /** The checkpointed container (the checkpoint's spec.containerName); the pod's first container when omitted. */
  containerName?: string;
  /**
   * The node whose containerd holds the checkpoint (the checkpoint's status.nodeName), given only when
   * the checkpoint is kept there (storage type containerd); the restore pod is pinned to it unless
   * targetPod.nodeSelector says otherwise.
   */
  nodeName?: string;
}

export function renderRestorePod(restore: KybernateRestore, source: RestoreSource): AnyObject {
  const target = restore.spec.targetPod ?? {};
  const base = podSpecOf(source.pod);
  const spec: Obj = base ?? { containers: [{ name: source.containerName ?? RESTORED_CONTAINER, image: source.checkpointImage }] };
  const { nodeName: _scheduledAgain, ephemeralContainers: _refusedOnCreate, ...kept } = spec;
  const containers = Array.isArray(kept.containers) ? (kept.containers as Obj[]) : [];
  const restored = restoredIndex(containers, source.containerName);
  return manifest({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...nameAndNamespace(restorePodName(restore), restore.metadata),
      labels: { [RESTORE_LABEL]: restore.metadata.name },
      annotations: { [RESTORE_FROM_ANNOTATION]: source.checkpointImage },
      ownerReferences: [controllerReference(RESTORE_KIND, restore.metadata)],
    },
    spec: {
      ...kept,
      containers: target.resources ? containers.map((c, i) => (i === restored ? { ...c, resources: resourcesOf(target.resources!) } : c)) : containers,
      ...placement(kept, target.nodeSelector, source.nodeName),
    },
  });
}

export interface WorkloadPodOptions {
  /** Wake from this checkpoint image rather than start fresh: the pod is annotated kybernate.io/restore-from. */
  restoreFrom?: string;
  /**
   * With restoreFrom: the node whose containerd holds the checkpoint. The pod is pinned to it (a required
   * node affinity, as the restore pod is) unless the template binds it to a node itself.
   */
  nodeName?: string;
}

/** The workload's pod: the template as given, named after the workload, labelled and owned by it. */
export function renderWorkloadPod(workload: KybernateWorkload, options: WorkloadPodOptions = {}): AnyObject {
  const template = sortKeysDeep(workload.spec.template) as Obj;
  const metadata = isObject(template.metadata) ? template.metadata : {};
  const labels = isObject(metadata.labels) ? metadata.labels : {};
  const annotations = {
    ...(isObject(metadata.annotations) ? metadata.annotations : {}),
    ...(options.restoreFrom !== undefined ? { [RESTORE_FROM_ANNOTATION]: options.restoreFrom } : {}),
  };
  const spec = isObject(template.spec) ? template.spec : {};
  const pinned = options.restoreFrom !== undefined && options.nodeName !== undefined && spec.nodeName === undefined;
  return manifest({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...nameAndNamespace(workloadPodName(workload), workload.metadata),
      // Ours last: the watch that wakes the workflow selects on it.
      labels: { ...labels, [WORKLOAD_LABEL]: workload.metadata.name },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [controllerReference(WORKLOAD_KIND, workload.metadata)],
    },
    spec: pinned ? { ...spec, ...placement(spec, undefined, options.nodeName) } : spec,
  });
}

/** The checkpointed pod's spec with its keys sorted; undefined without a pod or a spec. */
function podSpecOf(pod: AnyObject | undefined): Obj | undefined {
  const spec = pod?.spec;
  return isObject(spec) ? (sortKeysDeep(spec) as Obj) : undefined;
}

/** The restored container's index: the one named, else the first. */
function restoredIndex(containers: readonly Obj[], name: string | undefined): number {
  const named = name === undefined ? -1 : containers.findIndex((c) => c.name === name);
  return named >= 0 ? named : 0;
}

/** nodeSelector and affinity of the restore pod (see the choices above). */
function placement(spec: Obj, nodeSelector: Record<string, string> | undefined, nodeName: string | undefined): Obj {
  if (nodeSelector) return { nodeSelector: { ...nodeSelector } };
  if (nodeName === undefined) return {};
  const affinity = isObject(spec.affinity) ? spec.affinity : {};
  const onNode = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] };
  return { affinity: { ...affinity, nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: onNode } } };
}

function resourcesOf(resources: ResourceRequirements): Obj {
  return {
    ...(resources.requests ? { requests: { ...resources.requests } } : {}),
    ...(resources.limits ? { limits: { ...resources.limits } } : {}),
  };
}

function nameAndNamespace(name: string, owner: KybernateMetadata): Obj {
  return { name, ...(owner.namespace ? { namespace: owner.namespace } : {}) };
}

/**
 * The reference that makes Kubernetes' garbage collector remove the pod with its owner. Without a uid
 * (an offline render) it leaves the uid out rather than invent one.
 */
function controllerReference(kind: string, owner: KybernateMetadata): Obj {
  return { apiVersion: KYBERNATE_API_VERSION, kind, name: owner.name, ...(owner.uid ? { uid: owner.uid } : {}), controller: true, blockOwnerDeletion: true };
}

/** Our objects as the client's object type (whose ownerReferences type lacks blockOwnerDeletion and needs a uid). */
function manifest(object: Obj): AnyObject {
  return object as AnyObject;
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
