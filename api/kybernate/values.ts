// The allowed values of the Kybernate kinds' enumerated fields, shared by the CRD schemas and the validators.

export const STORAGE_TYPES = ['containerd', 'registry', 's3'] as const;
export const CHECKPOINT_PHASES = ['Pending', 'InProgress', 'Completed', 'Failed'] as const;
export const RESTORE_PHASES = ['Pending', 'Restoring', 'Running', 'Failed'] as const;
/** Pending until its pod first runs; Suspending while the idle pod is checkpointed and removed. */
export const WORKLOAD_PHASES = ['Pending', 'Running', 'Suspending', 'Suspended', 'Restoring', 'Failed'] as const;
