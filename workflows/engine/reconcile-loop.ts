import { allHandlersFinished, condition, setHandler, workflowInfo } from '@temporalio/workflow';
import { reconcileSignal, retrySignal, retryUpdate, viewQuery, type ReconcileRequest } from './definitions.ts';
import { backoffMs } from './durations.ts';
import { PassTimer } from './pass-timer.ts';
import { validateRetry } from './retry-refusal.ts';
import type { LoopView, RetryResult, StepError } from './view.ts';

/** How a pass ended: stop (object gone), or wait for a signal or at most `afterMs`. */
export type PassEnd = { done: true } | { done: false; afterMs: number };

/** The loop's durations and history bound (see `ReconcileSettings`). */
export interface LoopSettings {
  retryDelay: string;
  maxRetryDelay: string;
  maxHistoryEvents: number;
}

/**
 * One kind's reconciliation as the loop drives it. The kind decides what a pass does; the loop decides
 * when passes run, how failures back off, and when the run continues as new.
 */
export interface Reconciler<V extends LoopView> {
  readonly view: V;
  readonly settings: LoopSettings;
  /** Set by signals and retries: something may have changed, look again. Passes may wait on it too. */
  dirty: boolean;
  /** One level-triggered pass over the live object. */
  runPass(): Promise<PassEnd>;
  /** A failed pass: describe it (and say so in status when the kind wants to). */
  passFailed(err: unknown): Promise<StepError>;
  /** Search attributes and memo after each pass. */
  publish(): void;
  /** Continue as new, carrying what the next run needs. */
  continueAsNew(): Promise<never>;
  /** A watch signal arrived (before the loop marks the object dirty). */
  heard?(request: ReconcileRequest | undefined): void;
  /** An operator asked for a retry. */
  retried?(): void;
  /** The pass ended and the loop is about to wait (`dirty` says whether a signal already asks for another pass). */
  settling?(): void;
  /** The wait ended by its timer (a resync or a backoff), not by a signal. */
  timedOut?(): void;
}

/**
 * The level-triggered loop every kind's workflow runs: a pass, then a wait that any signal cuts short,
 * bounded by what the pass asked for (resync, poll or backoff); `retry` (signal or update) re-runs at
 * once; the `view` query answers live. Continue-as-new keeps the history short.
 */
export async function reconcileLoop<V extends LoopView>(r: Reconciler<V>): Promise<V> {
  const { view, settings } = r;
  let inPass = false;

  setHandler(reconcileSignal, (request) => {
    r.heard?.(request);
    r.dirty = true;
  });
  setHandler(retrySignal, () => {
    r.retried?.();
    r.dirty = true;
  });
  setHandler(
    retryUpdate,
    async (): Promise<RetryResult> => {
      const retried = view.lastError?.step ?? (view.waitingFor ? view.step : undefined);
      const previousError = view.lastError;
      const target = view.passes + (inPass ? 2 : 1);
      r.retried?.();
      r.dirty = true;
      await condition(() => view.passes >= target);
      return {
        retried,
        previousError,
        outcome: view.lastError ? 'failed' : view.waitingFor ? 'waiting' : 'succeeded',
        error: view.lastError,
      };
    },
    {
      // Refused before it is accepted (and recorded): what it cannot do, said to the operator at once.
      validator: () => validateRetry(view),
    },
  );
  setHandler(viewQuery, () => view);
  // One timer bounds the waits between passes until it fires (see PassTimer).
  const timer = new PassTimer();

  for (;;) {
    // Every run starts with a pass; signals that arrive during a pass mark it for one more.
    r.dirty = false;
    inPass = true;
    let end: PassEnd;
    try {
      end = await r.runPass();
      view.lastError = undefined;
      view.failures = 0;
    } catch (err) {
      view.failures++;
      view.lastError = await r.passFailed(err);
      end = { done: false, afterMs: backoffMs(view.failures, settings.retryDelay, settings.maxRetryDelay) };
    }
    inPass = false;
    view.passes++;
    r.publish();
    if (end.done) return view;

    r.settling?.();
    if (await timer.wait(end.afterMs, () => r.dirty)) r.timedOut?.();
    const info = workflowInfo();
    // A retry update still waiting for its pass gets that pass first; the next iteration continues as new.
    if ((info.continueAsNewSuggested || info.historyLength > settings.maxHistoryEvents) && allHandlersFinished()) {
      await r.continueAsNew();
    }
  }
}
