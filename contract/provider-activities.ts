import type { Phase } from '../api/types.ts';
import type { ReadRef } from './object-ref.ts';

export interface CompatibilityOutcome {
  compatible: boolean;
  errors: string[];
  warnings: string[];
}

export type ApplyResult =
  /** The provider resource did not exist and now does. */
  | 'created'
  /** The spec changed a config field; the resource was updated in place. */
  | 'updated'
  /** Nothing to change. */
  | 'unchanged'
  /** Someone edited the resource directly; our fields were restored. */
  | 'drift-restored'
  /** An identity field changed: the old resource is being deleted; apply again once it is gone. */
  | 'recreating'
  /** A previous deletion has not finished yet. */
  | 'waiting-for-deletion'
  /** The provider's CRD is not installed. */
  | 'crd-missing'
  /**
   * The rendered resource does not fit the installed CRD (checked before applying), or the API server
   * refused it because of what it holds: nothing was written; `refusal` says why, naming the field.
   */
  | 'refused';

export interface ResourceId {
  apiVersion: string;
  kind: string;
  name: string;
}

export interface ApplyOutcome {
  result: ApplyResult;
  resource: ResourceId | undefined;
  /** Changed identity fields, for `recreating`. */
  identityChanges: string[];
  warnings: string[];
  /** For `refused`: why, naming the object and the field. */
  refusal?: string;
}

export interface ObservedStatus {
  phase: Phase;
  message: string | undefined;
  ready: boolean;
}

export interface CleanupOutcome {
  gone: boolean;
  /** `Kind namespace/name` of what still exists. */
  remaining: string[];
}

/** What one `reconcileResource` call did, step by step: the history shows each step's outcome. */
export interface ReconcileOutcome {
  compatibility: CompatibilityOutcome;
  /** Undefined when the spec is not compatible (nothing is applied then). */
  apply: ApplyOutcome | undefined;
  observed: ObservedStatus;
}

/** The activities every provider worker serves on its own task queue. */
export interface ProviderActivities {
  /**
   * One provider pass in one call on the provider's queue: checks the spec is compatible, renders and
   * applies the provider resource, then reads it, maps its status and writes every provider-owned status
   * field. One round trip through Temporal, one read of the deployment and one render.
   */
  reconcileResource(ref: ReadRef): Promise<ReconcileOutcome>;
  cleanupResources(ref: ReadRef): Promise<CleanupOutcome>;
}
