import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { DeploymentView, RetryResult } from './view.ts';

/** "Look again": carries why, never the spec (activities always read the live object). */
export interface ReconcileRequest {
  reason: string;
  generation?: number;
  /** The object's resourceVersion in the event that caused the signal: reads must see at least this one. */
  resourceVersion?: string;
  /** Woken by a change of the provider's resource (its operator's status, an edit, a deletion), not of the object. */
  fromResource?: boolean;
}

export const reconcileSignal = defineSignal<[ReconcileRequest]>('reconcile');
/** Re-run the failed (or waiting) step now instead of after its backoff. */
export const retrySignal = defineSignal<[]>('retry');
/** Like the signal, but answers with what was retried and how the new attempt ended. */
export const retryUpdate = defineUpdate<RetryResult, []>('retry');
export const viewQuery = defineQuery<DeploymentView>('view');
