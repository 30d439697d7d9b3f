import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { StepError } from './view.ts';
import { PROVIDER_UNAVAILABLE } from '../../contract/failure-types.ts';

/**
 * A failed step, described by its stable failure type. An activity no worker picked up in time is
 * `ProviderUnavailable`: `servedBy` names who should have served its task queue (e.g. "Provider 'kaito'").
 */
export function stepError(step: string, err: unknown, servedBy = 'The worker'): StepError {
  const at = new Date().toISOString();
  if (err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START) {
    return { step, type: PROVIDER_UNAVAILABLE, message: `${servedBy} is not available: no worker is serving its task queue`, at };
  }
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) return { step, type: cause.type ?? 'Error', message: cause.message, at };
  if (cause instanceof TimeoutFailure) return { step, type: `Timeout${cause.timeoutType !== undefined ? `:${TimeoutType[cause.timeoutType]}` : ''}`, message: cause.message, at };
  return { step, type: 'Error', message: cause instanceof Error ? cause.message : String(cause), at };
}
