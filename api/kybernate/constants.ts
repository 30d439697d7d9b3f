// Names of the three Kybernate kinds (seed 003, research "Kybernate" 2a): their API group, the
// finalizer, the annotation and labels on the pods they create, the condition types, and the per-node
// task queue their node activities run on. Kept apart from api/constants.ts: Kybernate is its own API
// group, not kubeairunway.ai. Pure (no imports beyond api/common/), so workflow code, the CRD schema
// and the activities all agree on them.

import { kindNames } from '../common/kind-names.ts';

export const KYBERNATE_GROUP = 'kybernate.io';
export const KYBERNATE_VERSION = 'v1alpha1';
/** `kubectl get kybernate` lists all three kinds. */
export const KYBERNATE_CATEGORY = 'kybernate';

const kybernateKind = <T extends { kind: string; plural: string; singular: string; shortNames: readonly string[] }>(names: T) =>
  kindNames({ group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, ...names });
export const CHECKPOINT = kybernateKind({ kind: 'KybernateCheckpoint', plural: 'kybernatecheckpoints', singular: 'kybernatecheckpoint', shortNames: ['kcp'] });
export const RESTORE = kybernateKind({ kind: 'KybernateRestore', plural: 'kybernaterestores', singular: 'kybernaterestore', shortNames: ['krs'] });
export const WORKLOAD = kybernateKind({ kind: 'KybernateWorkload', plural: 'kybernateworkloads', singular: 'kybernateworkload', shortNames: ['kwl'] });
export const KYBERNATE_API_VERSION = CHECKPOINT.apiVersion;
export const { kind: CHECKPOINT_KIND, plural: CHECKPOINT_PLURAL } = CHECKPOINT;
export const { kind: RESTORE_KIND, plural: RESTORE_PLURAL } = RESTORE;
export const { kind: WORKLOAD_KIND, plural: WORKLOAD_PLURAL } = WORKLOAD;

export const KYBERNATE_KINDS: readonly string[] = [CHECKPOINT_KIND, RESTORE_KIND, WORKLOAD_KIND];

/**
 * On a KybernateCheckpoint while its artifacts (the checkpoint image in the node's containerd) may still
 * exist: garbage collection cannot reach containerd's content store, so deletion waits for the node
 * activity that removes them.
 */
export const ARTIFACTS_FINALIZER = 'kybernate.io/artifacts';

/**
 * On a pod that is to start from a checkpoint rather than fresh (restore variant C): the checkpoint
 * image a node runtime that restores pods (a shim, or a CRI runtime that restores) restores from.
 */
export const RESTORE_FROM_ANNOTATION = 'kybernate.io/restore-from';

/**
 * On the pod a KybernateRestore creates, and in the watch that maps the pod back to it: the restore's
 * name. A label value, so restore names are at most 63 characters.
 */
export const RESTORE_LABEL = 'kybernate.io/restore';
/** On the pod a KybernateWorkload runs: the workload's name (a label value too: at most 63 characters). */
export const WORKLOAD_LABEL = 'kybernate.io/workload';

/** Field manager of our server-side applies to Kybernate pods and statuses. */
export const KYBERNATE_FIELD_MANAGER = 'kubeairunway-kybernate';

export const READY_CONDITION = 'Ready';
/** On a KybernateWorkload whose last suspend could not checkpoint and fell back to a cold scale-to-zero. */
export const SUSPEND_DEGRADED_CONDITION = 'SuspendDegraded';

/** Suffix of the restore pod's name when `spec.targetPod.name` is not set. */
export const RESTORED_POD_SUFFIX = '-restored';

/** The pod a KybernateRestore creates: `spec.targetPod.name`, else `<restore>-restored`. */
export function restorePodName(restore: { metadata: { name: string }; spec: { targetPod?: { name?: string } } }): string {
  return restore.spec.targetPod?.name ?? `${restore.metadata.name}${RESTORED_POD_SUFFIX}`;
}

/** The pod a KybernateWorkload runs is named after it (one pod: the seed's workload has no replica set). */
export function workloadPodName(workload: { metadata: { name: string } }): string {
  return workload.metadata.name;
}

/**
 * The task queue of the worker beside containerd on node `nodeName`, which alone can reach that node's
 * containerd socket: `<prefix>-kybernate-node-<nodeName>` (the seed's `kybernate-node-<nodeName>`,
 * behind the installation's task-queue prefix like every other queue).
 */
export function nodeTaskQueue(prefix: string, nodeName: string): string {
  return `${prefix}-kybernate-node-${nodeName}`;
}

/**
 * The KybernateCheckpoint of a workload's n-th suspend: deterministic, so a suspend step that is run
 * again (a worker killed, an activity retried, a workflow replayed) finds the checkpoint it created and
 * never starts a second dump. Workload names have at most 63 characters, so this stays a valid name.
 */
export function suspendCheckpointName(workload: string, n: number): string {
  return `${workload}-suspend-${n}`;
}
