import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { Step, StepError } from './view.ts';

/** A failed step, described by its stable failure type; a provider nobody serves gets its own type. */
export function stepError(step: Step, err: unknown, provider: string | undefined): StepError {
  const at = new Date().toISOString();
  if (err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START) {
    return {
      step,
      type: 'ProviderUnavailable',
      message: `Provider '${provider}' is not available: no worker is serving its task queue`,
      at,
    };
  }
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) return { step, type: cause.type ?? 'Error', message: cause.message, at };
  if (cause instanceof TimeoutFailure) return { step, type: `Timeout${cause.timeoutType !== undefined ? `:${TimeoutType[cause.timeoutType]}` : ''}`, message: cause.message, at };
  return { step, type: 'Error', message: cause instanceof Error ? cause.message : String(cause), at };
}
