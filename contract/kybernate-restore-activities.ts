import type { ReadRef } from './object-ref.ts';

export type RestorePhase = 'Pending' | 'Restoring' | 'Running' | 'Failed';

/**
 * The little the restore workflow needs of its object. No finalizer: the restored pod is owned by the
 * restore (a controller ownerReference), and the garbage collector removes it with its owner.
 */
export interface RestoreAssessment {
  found: boolean;
  deleting?: boolean;
  paused?: boolean;
  invalid?: string;
  generation?: number;
  resourceVersion?: string;
  /** The phase its status records: Failed stays (a new restore is a new object). */
  phase?: RestorePhase;
  /** The restore time its status records, kept once written. */
  restoreTime?: string;
  /** metadata.creationTimestamp: spec.timeout counts from it. */
  createdAt?: string;
  /** spec.timeout, seconds. */
  timeoutSeconds?: number;
  /** spec.checkpointRef: the KybernateCheckpoint it waits for, if it names one. */
  checkpointRef?: string;
}

/** What the restore pod is made from, or why there is nothing to restore from yet (or ever). */
export type RestoreSourceResolution =
  | {
      ready: true;
      /** spec.checkpointImage, or the referenced checkpoint's status.checkpointRef. */
      checkpointImage: string;
      /** The node whose containerd holds the checkpoint (a checkpoint kept there only). */
      nodeName?: string;
      /** The checkpointed pod and container, when the source is a KybernateCheckpoint. */
      podName?: string;
      containerName?: string;
    }
  | { ready: false; failed: boolean; reason: 'CheckpointNotFound' | 'CheckpointNotCompleted' | 'CheckpointFailed'; message: string };

export type ReadyRestoreSource = Extract<RestoreSourceResolution, { ready: true }>;

/** The restore pod as it is now: `ready` when Running with its Ready condition True. */
export interface RestorePodState {
  podName: string;
  podUID?: string;
  phase?: string;
  ready: boolean;
  /** Why it failed (a Failed pod's reason, or PodExists for a pod of that name that is not ours). */
  reason?: string;
  message?: string;
}

export interface RestoreStatusInput {
  phase: RestorePhase;
  message: string;
  restoredPodName?: string;
  restoredPodUID?: string;
  restoreTime?: string;
  ready: { status: 'True' | 'False' | 'Unknown'; reason: string; message: string };
}

/** The restore's cluster-side steps: local activities of its workflow. */
export interface RestoreActivities {
  assessRestore(ref: ReadRef): Promise<RestoreAssessment>;
  resolveRestoreSource(ref: ReadRef): Promise<RestoreSourceResolution>;
  /** Creates the restore pod (server-side apply) unless it exists; its state either way. */
  applyRestorePod(ref: ReadRef, source: ReadyRestoreSource): Promise<RestorePodState>;
  /** Writes the status (conditions with their transition times) when it changed. */
  writeRestoreStatus(ref: ReadRef, status: RestoreStatusInput): Promise<void>;
}
