import { defineSignal } from '@temporalio/workflow';

// The messages a KybernateWorkload's workflow understands besides every kind's (engine/definitions.ts):
// what the activator (activator/) sends when requests arrive. Like `reconcile`, they carry no spec.

export interface WorkloadActivity {
  /** When the request arrived (ISO); the workflow's own clock when omitted. */
  at?: string;
}

export interface WorkloadWake {
  /** Why, for the history: e.g. "request GET /v1/models". */
  reason: string;
  at?: string;
}

/** A request reached the workload: the idle timer starts over. Wakes a suspended workload too. */
export const activitySignal = defineSignal<[WorkloadActivity]>('activity');
/** Run again: a suspended workload is restored (from its checkpoint, or fresh after a cold fallback). */
export const wakeSignal = defineSignal<[WorkloadWake]>('wake');
