/** Identifies one incarnation of a ModelDeployment: a delete-and-recreate has a new uid, hence a new workflow. */
export interface DeploymentRef {
  namespace: string;
  name: string;
  uid: string;
}

/** Readable in the Temporal UI and unique per incarnation. */
export function workflowIdFor(ref: DeploymentRef): string {
  return `modeldeployment/${ref.namespace}/${ref.name}/${ref.uid}`;
}
