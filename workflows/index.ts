// The workflow bundle's entry: every workflow type the core worker registers.
export { modelDeploymentWorkflow } from './model-deployment.ts';
