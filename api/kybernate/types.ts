// The three Kybernate resources (seed 003 §3, research "Kybernate" 2a, with its corrections):
// KybernateCheckpoint checkpoints one container of a running pod through the node's containerd (CRIU
// underneath); KybernateRestore brings a checkpoint back as a new pod; KybernateWorkload runs a pod
// that is checkpointed and removed when idle and restored on the next request. Types only, each spec's
// and status's derived from its schema (api/crd/kybernate-*-schema.ts); the validators (validate-*.ts)
// turn an unknown object into one of these, with the CRDs' defaults filled in.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';
import type { CheckedObject } from '../common/object-validator.ts';
import type { checkpointSpecSchema, checkpointStatusSchema } from '../crd/kybernate-checkpoint-schema.ts';
import type { storageSchema } from '../crd/kybernate-common-schema.ts';
import type { restoreSpecSchema, restoreStatusSchema } from '../crd/kybernate-restore-schema.ts';
import type { workloadSpecSchema, workloadStatusSchema } from '../crd/kybernate-workload-schema.ts';
import type { Static } from '../schema/typed.ts';
import type { CHECKPOINT_PHASES, RESTORE_PHASES, STORAGE_TYPES, WORKLOAD_PHASES } from './values.ts';

export type StorageType = (typeof STORAGE_TYPES)[number];

/** Where a checkpoint image is kept: the node's containerd (default), pushed to a registry, or in S3. */
export type StorageSpec = Static<typeof storageSchema>;

/** A Kubernetes quantity ("500m", "1Gi", or a plain number) and a container's requests/limits, passed to the pod as given. */
export type { Quantity, ResourceRequirements };

export type { Condition } from '../common/status-reader.ts';

export type KybernateMetadata = ObjectMetadata;

export type KybernateCheckpointSpec = Static<typeof checkpointSpecSchema>;
export type CheckpointGpuSpec = KybernateCheckpointSpec['gpu'];

export type CheckpointPhase = (typeof CHECKPOINT_PHASES)[number];

export type KybernateCheckpointStatus = Static<typeof checkpointStatusSchema>;

export type KybernateCheckpoint = CheckedObject<KybernateCheckpointSpec, KybernateCheckpointStatus>;

export type KybernateRestoreSpec = Static<typeof restoreSpecSchema>;
/** What of the restore pod may differ from the checkpointed one. */
export type TargetPodSpec = NonNullable<KybernateRestoreSpec['targetPod']>;

export type RestorePhase = (typeof RESTORE_PHASES)[number];

export type KybernateRestoreStatus = Static<typeof restoreStatusSchema>;

export type KybernateRestore = CheckedObject<KybernateRestoreSpec, KybernateRestoreStatus>;

export type KybernateWorkloadSpec = Static<typeof workloadSpecSchema>;
export type SuspendSpec = KybernateWorkloadSpec['suspend'];
export type ScaleToZeroSpec = KybernateWorkloadSpec['scaleToZero'];
export type ActivatorSpec = KybernateWorkloadSpec['activator'];

export type WorkloadPhase = (typeof WORKLOAD_PHASES)[number];

export type KybernateWorkloadStatus = Static<typeof workloadStatusSchema>;

export type KybernateWorkload = CheckedObject<KybernateWorkloadSpec, KybernateWorkloadStatus>;
