// The three Kybernate validators, from one place.

export { validateKybernateCheckpoint, type KybernateCheckpointValidation } from './validate-checkpoint.ts';
export { validateKybernateRestore, type KybernateRestoreValidation } from './validate-restore.ts';
export { validateKybernateWorkload, type KybernateWorkloadValidation } from './validate-workload.ts';
export type { FieldIssue as KybernateIssue } from '../common/checks.ts';
