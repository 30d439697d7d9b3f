import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { LoopView } from './view.ts';

/**
 * Why the `retry` update cannot be done now, or undefined when it can. Its validator answers with this,
 * so the operator hears it at once and the history keeps no update that could do nothing:
 * - a paused object: a pass changes nothing until the pause annotation is removed;
 * - an object that is gone: the workflow has ended its last pass and runs no other.
 * An idle object is not refused: the retry then runs a whole pass (what `kubeairunway retry` offers).
 */
export function retryRefusal(view: Pick<LoopView, 'step'>, objectGone: boolean): string | undefined {
  if (objectGone) return 'the object is gone: its workflow has run its last pass and is ending';
  if (view.step === 'paused') return `reconciliation is paused by the ${PAUSE_ANNOTATION} annotation: remove it, and the next pass runs at once`;
  return undefined;
}

/** The failure type of a refused retry, as the client sees it (`WorkflowUpdateFailedError`'s cause). */
export const RETRY_REFUSED = 'RetryRefused';

/** A refused retry. The SDK turns an error thrown by a validator into a failure typed by its class's name. */
export class RetryRefused extends Error {
  override readonly name = RETRY_REFUSED;
}

/** The `retry` update's validator: throws the refusal, typed, when there is one. */
export function validateRetry(view: Pick<LoopView, 'step'>, objectGone: boolean): void {
  const refusal = retryRefusal(view, objectGone);
  if (refusal) throw new RetryRefused(refusal);
}
