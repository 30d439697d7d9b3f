import type { SearchAttributePair } from '@temporalio/common';
import type { AnyObject, CollectionRef } from '../kube/custom-objects.ts';
import type { CollectionSpec } from '../kube/informer-set.ts';
import type { ObjectRef } from '../contract/object-ref.ts';
import type * as Workflows from '../workflows/index.ts';

/** A workflow of the bundle, by its export name from workflows/index.ts. */
export type WorkflowName = keyof typeof Workflows & string;

/** Where a kind's workflows run and how they are found: enough to start or signal one. */
export interface WorkflowKind {
  /** The Kubernetes kind, e.g. `ModelDeployment`; also the `Kind` search attribute and the workflow ID's prefix. */
  kind: string;
  /** The workflow function's name in the bundle (`workflows/index.ts`); the kind's registration takes it from here. */
  workflowType: WorkflowName;
  /** Search attributes the workflow starts with, besides `Kind`. */
  startAttributes(ref: ObjectRef): SearchAttributePair[];
}

/**
 * A kind the watcher reconciles: its collection, what of an object wakes its workflow, and which
 * child collections report back to their owner (by the owner's controller ownerReference).
 */
export interface WatchedKind extends WorkflowKind {
  collection: Omit<CollectionRef, 'namespace'>;
  /** What about an object should wake its workflow: our own status writes must leave it unchanged. */
  fingerprint(obj: AnyObject): string;
  /** The object looks new (nothing of ours on it yet): its workflow most likely does not exist, start it eagerly. */
  isNew(obj: AnyObject): boolean;
  /** Children watched beside the kind (in the namespaces watched) whose changes wake their owner. */
  children?: readonly ChildCollection[];
  /** Other watches that wake objects of this kind (configuration they depend on, a CRD they wait for). */
  related?(ctx: RelatedWatches): void;
}

/**
 * A child collection, by the label its members carry. Its owner is each member's controller
 * ownerReference, or, with `ownerLabel`, the object of the kind in the same namespace that the label
 * names (a workload another controller owns, which we only bind to).
 */
export interface ChildCollection extends Omit<CollectionSpec, 'namespace'> {
  ownerLabel?: string;
}

/** What a kind's related watches may do: watch a collection, and wake the kind's objects that match. */
export interface RelatedWatches {
  /** The namespaces watched (`undefined`: all): a namespaced related collection is watched in these. */
  namespaces: readonly (string | undefined)[];
  watch(what: string, collection: CollectionSpec, handlers: { upsert?: (o: AnyObject) => void; remove?: (o: AnyObject) => void }): void;
  wakeWhere(reason: string, match: (obj: AnyObject) => boolean): void;
}
