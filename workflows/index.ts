// The workflow bundle's entry: every workflow type the core worker registers, one per kind.
// Generated from the kinds' registrations (kinds/index.ts: `watched.workflowType`, `workflowModule`) by
// `npm run manifests`: edit them there (kinds/workflow-entry.ts).
// First: nothing the workflows below create captures a stack (see the module).
import './stack-traces.ts';
export { modelDeploymentWorkflow } from './model-deployment/model-deployment.ts';
export { flameClusterWorkflow } from './flame/flame-cluster.ts';
export { asyncActorWorkflow } from './asya/async-actor.ts';
export { kybernateCheckpointWorkflow } from './kybernate/checkpoint.ts';
export { kybernateRestoreWorkflow } from './kybernate/restore.ts';
export { kybernateWorkloadWorkflow } from './kybernate/workload.ts';
