import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { LoopView } from './view.ts';

/**
 * Why the `retry` update cannot be done now, or undefined when it can. Its validator answers with this,
 * so the operator hears it at once and the history keeps no update that could do nothing: a paused
 * object is refused, as a pass changes nothing until the pause annotation is removed. An idle object is
 * not refused: the retry then runs a whole pass (what `kubeairunway retry` offers). No refusal for an
 * object that is gone: the loop returns as soon as a pass finds it so, with no yield in between, so no
 * validator ever runs in that state; a later update finds the workflow ended.
 */
export function retryRefusal(view: Pick<LoopView, 'step'>): string | undefined {
  if (view.step === 'paused') return `reconciliation is paused by the ${PAUSE_ANNOTATION} annotation: remove it, and the next pass runs at once`;
  return undefined;
}

/** The failure type of a refused retry, as the client sees it (`WorkflowUpdateFailedError`'s cause). */
export const RETRY_REFUSED = 'RetryRefused';

/** A refused retry. The SDK turns an error thrown by a validator into a failure typed by the error's `name`. */
export class RetryRefused extends Error {
  override readonly name = RETRY_REFUSED;
}

/** The `retry` update's validator: throws the refusal, typed, when there is one. */
export function validateRetry(view: Pick<LoopView, 'step'>): void {
  const refusal = retryRefusal(view);
  if (refusal) throw new RetryRefused(refusal);
}
