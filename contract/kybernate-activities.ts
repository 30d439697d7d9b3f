import type { ReadRef } from './object-ref.ts';

export type CheckpointPhase = 'Pending' | 'InProgress' | 'Completed' | 'Failed';

/** The little the checkpoint workflow needs of its object; never the spec beyond these fields. */
export interface CheckpointAssessment {
  found: boolean;
  deleting?: boolean;
  deletionTimestamp?: string;
  hasFinalizer?: boolean;
  generation?: number;
  resourceVersion?: string;
  invalid?: string;
  paused?: boolean;
  /** The phase its status records: a checkpoint is one-shot, a terminal phase stays. */
  phase?: CheckpointPhase;
  checkpointRef?: string;
  nodeName?: string;
  leaveRunning?: boolean;
  /** spec.timeout, seconds. */
  timeoutSeconds?: number;
  /** spec.gpu.pluginPath when the GPU plugin is asked for. */
  gpuPluginPath?: string;
}

/** The pod's container as the node sees it, or why there is nothing to checkpoint (no node call then). */
export type PodResolution =
  | { ok: true; nodeName: string; containerId: string; containerName: string }
  | { ok: false; reason: 'PodNotFound' | 'PodNotRunning' | 'ContainerNotFound' | 'PodNotScheduled'; message: string };

export interface CheckpointStatusInput {
  phase: CheckpointPhase;
  message: string;
  checkpointRef?: string;
  checkpointSize?: string;
  startTime?: string;
  completionTime?: string;
  nodeName?: string;
  containerID?: string;
  ready: { status: 'True' | 'False' | 'Unknown'; reason: string; message: string };
}

/** The checkpoint's cluster-side steps: local activities of its workflow. */
export interface CheckpointActivities {
  /** Reads and validates; adds the artifacts finalizer when missing (not while deleting). */
  assessCheckpoint(ref: ReadRef): Promise<CheckpointAssessment>;
  resolveCheckpointPod(ref: ReadRef): Promise<PodResolution>;
  writeCheckpointStatus(ref: ReadRef, status: CheckpointStatusInput): Promise<void>;
  removeCheckpointFinalizer(ref: ReadRef): Promise<void>;
  recordCheckpointEvent(ref: ReadRef, event: { type: 'Normal' | 'Warning'; reason: string; message: string }): Promise<void>;
}

export interface CheckpointResult {
  ref: string;
  /** Bytes of the checkpoint image (index and blobs). */
  size: number;
}

/** What runs beside containerd on one node, on its own task queue (`<prefix>-kybernate-node-<node>`). */
export interface NodeActivities {
  /** Dumps the container's task with CRIU (leaving it running, or exiting it) into a named checkpoint image. */
  checkpointContainer(input: { containerId: string; leaveRunning: boolean; gpuPluginPath?: string }): Promise<CheckpointResult>;
  /** Deletes a checkpoint image and its content; false when it was already gone. */
  deleteCheckpointImage(input: { ref: string }): Promise<{ deleted: boolean }>;
}
