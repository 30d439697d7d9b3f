// The three Kybernate resources (seed 003 §3, research "Kybernate" 2a, with its corrections):
// KybernateCheckpoint checkpoints one container of a running pod through the node's containerd (CRIU
// underneath); KybernateRestore brings a checkpoint back as a new pod; KybernateWorkload runs a pod
// that is checkpointed and removed when idle and restored on the next request. Types only; the
// validators (validate-*.ts) turn an unknown object into one of these, with the CRDs' defaults filled in.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';
import type { Condition } from '../common/status-reader.ts';
import type { CHECKPOINT_PHASES, RESTORE_PHASES, STORAGE_TYPES, WORKLOAD_PHASES } from './values.ts';

export type StorageType = (typeof STORAGE_TYPES)[number];

/** Where a checkpoint image is kept: the node's containerd (default), pushed to a registry, or in S3. */
export interface StorageSpec {
  type: StorageType;
  /** registry: the image reference to push to. */
  image?: string;
  /** s3: bucket and object key. */
  bucket?: string;
  key?: string;
}

/** A Kubernetes quantity ("500m", "1Gi", or a plain number) and a container's requests/limits, passed to the pod as given. */
export type { Quantity, ResourceRequirements };

export type { Condition } from '../common/status-reader.ts';

export type KybernateMetadata = ObjectMetadata;

export interface CheckpointGpuSpec {
  /** Use CRIU's CUDA plugin. */
  enabled: boolean;
  /** The CRIU plugin directory on the node (CRIU_LIBS); the node worker's own when omitted. */
  pluginPath?: string;
}

export interface KybernateCheckpointSpec {
  /** The pod in the checkpoint's namespace. */
  podName: string;
  /** The container to checkpoint; the pod's first container when omitted (resolved when the pod is read). */
  containerName?: string;
  /** Keep the task running after the dump (runc's `exit` option is its negation). */
  leaveRunning: boolean;
  /** Seconds the checkpoint may take. */
  timeout: number;
  storage: StorageSpec;
  gpu: CheckpointGpuSpec;
}

export type CheckpointPhase = (typeof CHECKPOINT_PHASES)[number];

export interface KybernateCheckpointStatus {
  phase?: CheckpointPhase;
  /** The checkpoint image, e.g. containerd.io/checkpoint/<id>:<timestamp>. */
  checkpointRef?: string;
  /** Its size, human-readable ("2.2Gi"). */
  checkpointSize?: string;
  startTime?: string;
  completionTime?: string;
  /** The node whose containerd holds the checkpoint (and runs the artifact cleanup). */
  nodeName?: string;
  /** The container checkpointed, without its `containerd://` prefix. */
  containerID?: string;
  message?: string;
  conditions?: Condition[];
  observedGeneration?: number;
}

export interface KybernateCheckpoint {
  apiVersion: string;
  kind: string;
  metadata: KybernateMetadata;
  spec: KybernateCheckpointSpec;
  status?: KybernateCheckpointStatus;
}

/** What of the restore pod may differ from the checkpointed one. */
export interface TargetPodSpec {
  /** The restore pod's name; `<restore>-restored` when omitted. */
  name?: string;
  nodeSelector?: Record<string, string>;
  /** Requests and limits of the restored container. */
  resources?: ResourceRequirements;
}

export interface KybernateRestoreSpec {
  /** A KybernateCheckpoint in the same namespace. Exactly one of checkpointRef and checkpointImage is set. */
  checkpointRef?: string;
  /** A checkpoint image, e.g. containerd.io/checkpoint/<id>:<timestamp>. */
  checkpointImage?: string;
  targetPod?: TargetPodSpec;
  /** Seconds the restore may take, until its pod runs. */
  timeout: number;
  gpu: { enabled: boolean };
}

export type RestorePhase = (typeof RESTORE_PHASES)[number];

export interface KybernateRestoreStatus {
  phase?: RestorePhase;
  restoredPodName?: string;
  restoredPodUID?: string;
  restoreTime?: string;
  /** For debugging the seed's counter workload: the count the restored process continued from. */
  counterValue?: number;
  message?: string;
  conditions?: Condition[];
  observedGeneration?: number;
}

export interface KybernateRestore {
  apiVersion: string;
  kind: string;
  metadata: KybernateMetadata;
  spec: KybernateRestoreSpec;
  status?: KybernateRestoreStatus;
}

export interface SuspendSpec {
  /** Checkpoint and remove the pod after `idleTimeout` without requests. */
  enabled: boolean;
  /** A duration such as "5m" (parseDuration). */
  idleTimeout: string;
  storage: StorageSpec;
}

export interface ScaleToZeroSpec {
  enabled: boolean;
  minReplicas: number;
  maxReplicas: number;
}

export interface ActivatorSpec {
  /** Receive requests, wake a suspended workload and hold them until it runs. */
  enabled: boolean;
  port: number;
  healthPath: string;
  /** How long a request is held while the workload wakes, e.g. "30s" (parseDuration). */
  queueTimeout: string;
}

export interface KybernateWorkloadSpec {
  /** A pod template (metadata, spec), kept as given. */
  template: Record<string, unknown>;
  suspend: SuspendSpec;
  scaleToZero: ScaleToZeroSpec;
  activator: ActivatorSpec;
}

export type WorkloadPhase = (typeof WORKLOAD_PHASES)[number];

export interface KybernateWorkloadStatus {
  phase?: WorkloadPhase;
  activeReplicas?: number;
  /** Suspends that ended in a checkpoint (a cold fallback does not count). */
  suspendedCheckpoints?: number;
  lastActivityTime?: string;
  podName?: string;
  message?: string;
  conditions?: Condition[];
  observedGeneration?: number;
}

export interface KybernateWorkload {
  apiVersion: string;
  kind: string;
  metadata: KybernateMetadata;
  spec: KybernateWorkloadSpec;
  status?: KybernateWorkloadStatus;
}
