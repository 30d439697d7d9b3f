// The three Kybernate resources (seed 003 §3, research "Kybernate" 2a, with its corrections):
// KybernateCheckpoint checkpoints one container of a running pod through the node's containerd (CRIU
// underneath); KybernateRestore brings a checkpoint back as a new pod; KybernateWorkload runs a pod
// that is checkpointed and removed when idle and restored on the next request. Types only, the specs'
// derived from their schemas; the validators (validate-*.ts) turn an unknown object into one of these, with the CRDs' defaults filled in.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';
import type { Condition } from '../common/status-reader.ts';
import type { checkpointSpecSchema } from '../crd/kybernate-checkpoint-schema.ts';
import type { storageSchema } from '../crd/kybernate-common-schema.ts';
import type { restoreSpecSchema } from '../crd/kybernate-restore-schema.ts';
import type { workloadSpecSchema } from '../crd/kybernate-workload-schema.ts';
import type { Static } from '../schema/typed.ts';
import type { CHECKPOINT_PHASES, RESTORE_PHASES, STORAGE_TYPES, WORKLOAD_PHASES } from './values.ts';

export type StorageType = (typeof STORAGE_TYPES)[number];

/** Where a checkpoint image is kept: the node's containerd (default), pushed to a registry, or in S3. */
export type StorageSpec = Static<typeof storageSchema>;

/** A Kubernetes quantity ("500m", "1Gi", or a plain number) and a container's requests/limits, passed to the pod as given. */
export type { Quantity, ResourceRequirements };

export type { Condition } from '../common/status-reader.ts';

export type KybernateMetadata = ObjectMetadata;

/** The specs, as declared once in their schemas (api/crd/kybernate-*-schema.ts), with the CRDs' defaults filled in. */
export type KybernateCheckpointSpec = Static<typeof checkpointSpecSchema>;
export type CheckpointGpuSpec = KybernateCheckpointSpec['gpu'];

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

export type KybernateRestoreSpec = Static<typeof restoreSpecSchema>;
/** What of the restore pod may differ from the checkpointed one. */
export type TargetPodSpec = NonNullable<KybernateRestoreSpec['targetPod']>;

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

export type KybernateWorkloadSpec = Static<typeof workloadSpecSchema>;
export type SuspendSpec = KybernateWorkloadSpec['suspend'];
export type ScaleToZeroSpec = KybernateWorkloadSpec['scaleToZero'];
export type ActivatorSpec = KybernateWorkloadSpec['activator'];

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
