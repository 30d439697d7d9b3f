import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { LoopView } from './view.ts';

/**
 * What a run at a code level shows the Temporal UI, each written only when it changes (every write is a
 * command, a history event and a visibility write on the server): search attributes for the UI's
 * queries, and a memo with what they cannot carry, the step that failed and its error, for `status`
 * when no worker answers the `view` query. A pass that goes well writes no memo.
 */
export class VisibilityWrites {
  private attributesKey: string | undefined;
  private failureKey = '';

  /** Upserted when any value differs from the last upsert's. */
  attributes(pairs: SearchAttributeUpdatePair[]): void {
    const key = JSON.stringify(pairs.map((p) => p.value));
    if (key === this.attributesKey) return;
    this.attributesKey = key;
    upsertSearchAttributes(pairs);
  }

  failure(view: LoopView): void {
    const key = view.lastError ? `${view.step}|${view.lastError.message}` : '';
    if (key === this.failureKey) return;
    this.failureKey = key;
    upsertMemo({ summary: { step: view.step, lastError: view.lastError?.message ?? null } });
  }
}
