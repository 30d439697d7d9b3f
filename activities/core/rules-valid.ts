// The RulesValid condition the core writes on an InferenceProviderConfig's status when its selection
// rules fail (field manager kubeairunway-controller; the provider's heartbeat owns the rest of status).
// Whether a rule fails depends on the spec it reads, so the condition records failures as they are met:
//   - a rule failed while selecting → False, naming every rule that failed and why, for this generation;
//   - a False left from an older generation (the rules were edited since) → True once a selection
//     evaluates the current rules without error;
//   - otherwise nothing is written: no condition means no rule has been seen failing.
// Every write is decided from the listed config, so a repeat of the same failure writes nothing.

import type { Condition, InferenceProviderConfig } from '../../api/types.ts';
import { compileRule, evaluateRule } from '../../providers/cel.ts';
import { describeRuleError, type RuleError } from '../../providers/rule-errors.ts';
import { withTransitionTimes, type DesiredCondition } from '../status/conditions.ts';

export const RULES_VALID = 'RulesValid';

export interface RulesValidUpdate {
  provider: string;
  condition: Condition;
  /**
   * Write only if the config is still at this resourceVersion: a clearing True computed from a cached
   * list must not overwrite a False another selection has just written.
   */
  resourceVersion?: string;
}

export function rulesValidUpdates(configs: readonly InferenceProviderConfig[], errors: readonly RuleError[], spec: unknown, now: string): RulesValidUpdate[] {
  const updates: RulesValidUpdate[] = [];
  for (const config of configs) {
    const provider = config.metadata?.name ?? '';
    const generation = config.metadata?.generation ?? 0;
    const current = config.status?.conditions?.find((c) => c.type === RULES_VALID);
    const failed = errors.filter((e) => e.provider === provider);
    if (failed.length > 0) {
      const desired = failedCondition(failed);
      if (current && same(current, desired, generation)) continue;
      updates.push({ provider, condition: withTransitionTimes(current ? [current] : undefined, [desired], now, generation)[0]! });
      continue;
    }
    const stale = current?.status === 'False' && (current.observedGeneration ?? 0) < generation;
    if (!stale || !rulesEvaluateCleanly(config, spec)) continue;
    const desired: DesiredCondition = {
      type: RULES_VALID,
      status: 'True',
      reason: 'RulesEvaluated',
      message: `Every selection rule evaluated without error since generation ${generation}`,
    };
    updates.push({
      provider,
      condition: withTransitionTimes([current], [desired], now, generation)[0]!,
      ...(config.metadata?.resourceVersion ? { resourceVersion: config.metadata.resourceVersion } : {}),
    });
  }
  return updates;
}

function failedCondition(failed: readonly RuleError[]): DesiredCondition {
  // A rule stored while the webhook was down may not even compile; say which kind of failure it is.
  const compile = failed.some((e) => compileRule(e.condition).error !== undefined);
  return {
    type: RULES_VALID,
    status: 'False',
    reason: compile ? 'RuleCompileFailed' : 'RuleEvaluationFailed',
    message: `${failed.map(describeRuleError).join('; ')}; a failing rule counts as not matching`,
  };
}

function rulesEvaluateCleanly(config: InferenceProviderConfig, spec: unknown): boolean {
  return (config.spec?.selectionRules ?? []).every((rule) => evaluateRule(rule.condition, spec).error === undefined);
}

function same(current: Condition, desired: DesiredCondition, generation: number): boolean {
  return current.status === desired.status && current.reason === desired.reason && current.message === desired.message && current.observedGeneration === generation;
}
