import type { ReadRef } from './object-ref.ts';

export type WorkloadPhase = 'Pending' | 'Running' | 'Suspending' | 'Suspended' | 'Restoring' | 'Failed';

/**
 * How an idle workload goes to zero: `checkpoint` (suspend.enabled: checkpoint, then remove the pod),
 * `cold` (scaleToZero.enabled with minReplicas 0 and no suspend: remove the pod, start fresh on wake),
 * `never` (it runs until deleted).
 */
export type IdleMode = 'checkpoint' | 'cold' | 'never';

/**
 * The little the workload workflow needs of its object. No finalizer: its pod and its checkpoints are
 * owned by it (a controller ownerReference) and the garbage collector removes them with it.
 */
export interface WorkloadAssessment {
  found: boolean;
  deleting?: boolean;
  paused?: boolean;
  invalid?: string;
  generation?: number;
  resourceVersion?: string;
  idleMode?: IdleMode;
  /** suspend.idleTimeout in milliseconds. */
  idleTimeoutMs?: number;
  /** The pod the workload runs (named after it). */
  podName?: string;
  /**
   * Asked for by the first pass of a workflow that starts afresh (not continued): what earlier runs of
   * it left, so that it goes on from there (status.suspendedCheckpoints, and the highest suspend number
   * among its checkpoints, whose names are never reused).
   */
  earlier?: { suspendedCheckpoints: number; lastSuspend: number };
}

/** The workload's pod as it is now: `ready` when Running with its Ready condition True. */
export interface WorkloadPodState {
  podName: string;
  podUID?: string;
  phase?: string;
  ready: boolean;
  /** Being deleted (a suspend's delete, or someone's): a new one is created once it is gone. */
  deleting?: boolean;
  /** Created by this call (not found before). */
  created?: boolean;
  /** Its kybernate.io/restore-from annotation: the checkpoint image it was created to restore from. */
  restoreFrom?: string;
  /** Why it cannot run: a Failed pod's reason, or PodExists for a pod of that name that is not ours. */
  reason?: string;
  message?: string;
}

/** The KybernateCheckpoint of one suspend, as it is now (created by the call when absent). */
export type SuspendCheckpointState =
  | { foreign: true; message: string }
  | {
      foreign: false;
      phase?: 'Pending' | 'InProgress' | 'Completed' | 'Failed';
      checkpointRef?: string;
      message?: string;
      /** Its spec.timeout, seconds: the suspend waits that long (and a margin) for it. */
      timeoutSeconds: number;
      /** The node whose containerd holds it (a checkpoint kept there only): the wake's pod is pinned to it. */
      nodeName?: string;
      created?: boolean;
    };

export interface WorkloadStatusInput {
  phase: WorkloadPhase;
  message: string;
  activeReplicas: number;
  suspendedCheckpoints: number;
  podName?: string;
  /** Written in coarse steps only, never per request. */
  lastActivityTime?: string;
  ready: { status: 'True' | 'False' | 'Unknown'; reason: string; message: string };
  /** SuspendDegraded: True after a suspend that could not checkpoint and fell back to a cold scale-to-zero. */
  degraded: { status: 'True' | 'False'; reason: string; message: string };
}

/** The workload's cluster-side steps: local activities of its workflow. */
export interface WorkloadActivities {
  assessWorkload(ref: ReadRef, opts?: { earlier?: boolean }): Promise<WorkloadAssessment>;
  /**
   * Creates the workload's pod (server-side apply, owned by the workload) unless it exists; its state
   * either way. `restoreFrom` annotates a new pod with kybernate.io/restore-from.
   */
  applyWorkloadPod(ref: ReadRef, opts: { restoreFrom?: string; nodeName?: string }): Promise<WorkloadPodState>;
  /** Deletes the pod (only the incarnation `podUID` when given); what became of it. */
  deleteWorkloadPod(ref: ReadRef, pod: { podName: string; podUID?: string }): Promise<'absent' | 'gone' | 'deleting'>;
  /** Creates the suspend's KybernateCheckpoint `name` of pod `podName` unless it exists; its state either way. */
  applySuspendCheckpoint(ref: ReadRef, checkpoint: { name: string; podName: string }): Promise<SuspendCheckpointState>;
  /** Deletes the workload's checkpoints but `keep` (their finalizers remove the images on their nodes); how many it deleted. */
  pruneSuspendCheckpoints(ref: ReadRef, keep: readonly string[]): Promise<number>;
  /** Writes the status (conditions with their transition times) when it changed. */
  writeWorkloadStatus(ref: ReadRef, status: WorkloadStatusInput): Promise<void>;
}
