// How a failing CEL selection rule is named wherever it is reported: the selection's `rejected` reasons,
// the deployment's ProviderRuleError event and ProviderSelected message, the provider config's
// RulesValid condition, the admission denial and `kar explain`. Rules are numbered from 1 in prose and
// indexed from 0 in field paths (spec.selectionRules[0] is rule 1), so both forms point at the same rule.
//
// A rule that fails counts as not matching (DESIGN: CEL; docs/validation.md): selection goes on with
// the provider's other rules and the other providers, and the failure is reported, never swallowed.

import type { Issue } from '../api/types.ts';
import { compileRule } from './cel.ts';

export interface RuleError {
  /** InferenceProviderConfig name. */
  provider: string;
  /** Index in spec.selectionRules (0-based). */
  index: number;
  condition: string;
  error: string;
}

export const PROVIDER_RULE_ERROR_REASON = 'ProviderRuleError';

/** `rule 2 (spec.x > 1) failed: No such key: x`, the wording selection has always used. */
export function describeRuleError(e: Pick<RuleError, 'index' | 'condition' | 'error'>): string {
  return `rule ${e.index + 1} (${e.condition}) failed: ${e.error}`;
}

/** The Warning event on the ModelDeployment whose selection met the failing rule. */
export function ruleErrorEvent(e: RuleError): { type: 'Warning'; reason: string; message: string } {
  return {
    type: 'Warning',
    reason: PROVIDER_RULE_ERROR_REASON,
    message: `Provider '${e.provider}' selection ${describeRuleError(e)}; counted as not matching`,
  };
}

/** Appended to a "nothing selected" message, so the Pending status says a broken rule may be why. */
export function withRuleErrors(message: string, errors: readonly RuleError[]): string {
  if (errors.length === 0) return message;
  return [message, ...errors.map((e) => `provider '${e.provider}' ${describeRuleError(e)}`)].join('; ');
}

/**
 * The rules of an InferenceProviderConfig spec that do not compile (syntax, unknown variable, a type
 * that is not bool), one issue each, for admission. Shapes that are not rules (a missing condition, a
 * non-list) are the CRD schema's to reject; they are skipped here.
 */
export function selectionRuleCompileErrors(spec: unknown): Issue[] {
  const rules = spec !== null && typeof spec === 'object' ? (spec as { selectionRules?: unknown }).selectionRules : undefined;
  if (!Array.isArray(rules)) return [];
  const issues: Issue[] = [];
  rules.forEach((rule: unknown, index) => {
    const condition = rule !== null && typeof rule === 'object' ? (rule as { condition?: unknown }).condition : undefined;
    if (typeof condition !== 'string') return;
    const { error } = compileRule(condition);
    if (error === undefined) return;
    const field = `spec.selectionRules[${index}].condition`;
    issues.push({ field, message: `${field}: rule ${index + 1} (${condition}) does not compile: ${error}` });
  });
  return issues;
}
