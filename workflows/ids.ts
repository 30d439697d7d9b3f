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

/**
 * A deployment as a reconcile pass addresses it: `seenVersion` is the newest resourceVersion the pass
 * knows of (from the watch event that woke it, or its own first read). Activities may answer from
 * their process's cache only when the cached object is at least that new.
 */
export interface ReadRef extends DeploymentRef {
  seenVersion?: string;
}
