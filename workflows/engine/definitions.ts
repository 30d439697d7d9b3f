import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { LoopView, RetryResult } from './view.ts';

// The messages every kind's workflow understands: the watcher's "look again", an operator's retry and
// the `view` query that `status` and the Temporal UI read.

/** "Look again": carries why, never the spec (activities always read the live object). */
export interface ReconcileRequest {
  reason: string;
  generation?: number;
  /** The object's resourceVersion in the event that caused the signal: reads must see at least this one. */
  resourceVersion?: string;
  /** Woken by a change of a child resource (its status, an edit, a deletion), not of the object itself. */
  fromResource?: boolean;
}

export const reconcileSignal = defineSignal<[ReconcileRequest]>('reconcile');
/** Re-run the failed (or waiting) step now instead of after its backoff. */
export const retrySignal = defineSignal<[]>('retry');
/** Like the signal, but answers with what was retried and how the new attempt ended. */
export const retryUpdate = defineUpdate<RetryResult, []>('retry');
export const viewQuery = defineQuery<LoopView>('view');
