/** Identifies one incarnation of an object: a delete-and-recreate has a new uid, hence a new workflow. */
export interface ObjectRef {
  namespace: string;
  name: string;
  uid: string;
}

/** Readable in the Temporal UI and unique per incarnation, e.g. `modeldeployment/default/llama-8b/<uid>`. */
export function workflowIdFor(kind: string, ref: ObjectRef): string {
  return `${kind.toLowerCase()}/${ref.namespace}/${ref.name}/${ref.uid}`;
}

/**
 * An object as a reconcile pass addresses it: `seenVersion` is the newest resourceVersion the pass
 * knows of (from the watch event that woke it, or its own first read). Activities may answer from
 * their process's cache only when the cached object is at least that new.
 */
export interface ReadRef extends ObjectRef {
  seenVersion?: string;
}
