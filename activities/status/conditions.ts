import type { Condition, ConditionStatus } from '../../api/types.ts';

export interface DesiredCondition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
}

/**
 * The conditions to write: a condition's lastTransitionTime moves only when its status changes (the
 * Kubernetes convention), so a reason or message update keeps the time the state was entered.
 */
export function withTransitionTimes(live: readonly Condition[] | undefined, desired: readonly DesiredCondition[], now: string, generation: number): Condition[] {
  return desired.map((d) => {
    const previous = live?.find((c) => c.type === d.type);
    const lastTransitionTime = previous && previous.status === d.status && previous.lastTransitionTime ? previous.lastTransitionTime : now;
    return { type: d.type, status: d.status, reason: d.reason, message: d.message, lastTransitionTime, observedGeneration: generation };
  });
}
