// Provider selection (seed 001 §3.5.2, §4.4). Steps:
//   1. An explicit spec.provider.name wins ("explicit provider selection"); a provider already recorded
//      in status.provider.name is kept (selection is one-time, and it is how a custom selector hands
//      over when the built-in one is disabled).
//   2. With the selector disabled, nothing is selected: "No provider specified and provider-selector
//      not installed".
//   3. Only ready InferenceProviderConfigs count; none ready → "No healthy providers available".
//   4. Capabilities filter: engine, GPU or CPU (GPUs of prefill/decode count as GPU), serving mode.
//      This is what keeps disaggregated deployments away from KAITO, although §4.4's pseudocode would
//      send every GPU-less spec there first.
//   5. Score = the highest priority among the provider's rules that match. A provider with no matching
//      rule is not a candidate: rules are how a provider opts into auto-selection, so KubeRay, which has
//      none, is only ever selected explicitly (§4.4 note). A rule that fails to evaluate does not match.
//   6. Highest score wins; equal scores go to the alphabetically first name.
// Every provider that is not selected is listed in `rejected` with the reason, in name order. Every rule
// that failed (does not compile, throws, is not a bool) is also listed in `ruleErrors`, whether or not
// its provider won: a broken rule must be seen even when another rule of the same provider matched.

import { selectionMessages } from '../api/messages.ts';
import type { InferenceProviderConfig, ModelDeployment } from '../api/types.ts';
import { evaluateRule } from './cel.ts';
import { describeRuleError, type RuleError } from './rule-errors.ts';
import { requestsGpu, resolveSpec } from './shared/spec.ts';
import type { ResolvedSpec } from './shared/spec.ts';

export interface SelectionOptions {
  /** `--enable-provider-selector` (default true in the seed). */
  selectorEnabled: boolean;
}

export interface ProviderChoice {
  name: string;
  reason: string;
}

export interface SelectionResult {
  /** The provider for status.provider.name, with status.provider.selectedReason. */
  selected?: ProviderChoice;
  /** Why nothing was selected; the ModelDeployment stays Pending with this message. */
  error?: string;
  /** Every provider not selected, with the reason, in name order. */
  rejected: ProviderChoice[];
  /** Every selection rule that failed while selecting, in provider then rule order; each counted as not matching. */
  ruleErrors: RuleError[];
}

interface Candidate {
  name: string;
  priority: number;
  /** Rules of this provider that failed although another one matched. */
  errors: RuleError[];
}

export function selectProvider(
  md: ModelDeployment,
  configs: readonly InferenceProviderConfig[],
  options: SelectionOptions,
): SelectionResult {
  const explicit = md.spec?.provider?.name;
  if (explicit) return { selected: { name: explicit, reason: selectionMessages.explicit }, rejected: [], ruleErrors: [] };

  const recorded = md.status?.provider?.name;
  if (recorded) {
    return { selected: { name: recorded, reason: md.status?.provider?.selectedReason ?? 'previously selected' }, rejected: [], ruleErrors: [] };
  }

  if (!options.selectorEnabled) return { error: selectionMessages.selectorDisabled, rejected: [], ruleErrors: [] };

  const spec = resolveSpec(md);
  const gpu = requestsGpu(spec);
  const rejected: ProviderChoice[] = [];
  const candidates: Candidate[] = [];
  const ruleErrors: RuleError[] = [];
  let anyReady = false;

  for (const config of configs) {
    const name = config.metadata?.name ?? '';
    if (config.status?.ready !== true) {
      rejected.push({ name, reason: 'not ready (status.ready is not true)' });
      continue;
    }
    anyReady = true;
    const mismatch = capabilityMismatch(config, spec, gpu);
    if (mismatch) {
      rejected.push({ name, reason: mismatch });
      continue;
    }
    const score = scoreRules(name, config, md.spec);
    ruleErrors.push(...score.errors);
    if (score.priority === undefined) rejected.push({ name, reason: score.explanation });
    else candidates.push({ name, priority: score.priority, errors: score.errors });
  }

  if (!anyReady) return { error: selectionMessages.noHealthyProviders, rejected: byName(rejected), ruleErrors };

  candidates.sort((a, b) => b.priority - a.priority || compareNames(a.name, b.name));
  const [winner, ...losers] = candidates;
  const capabilities = describeRequest(spec, gpu);
  if (!winner) {
    return { error: `No compatible provider found for ${capabilities}`, rejected: byName(rejected), ruleErrors };
  }
  for (const loser of losers) {
    const lost =
      loser.priority === winner.priority
        ? `same priority ${loser.priority} as ${winner.name}, which comes first alphabetically`
        : `priority ${loser.priority} is lower than ${winner.name}'s ${winner.priority}`;
    rejected.push({ name: loser.name, reason: [lost, ...loser.errors.map(describeRuleError)].join('; ') });
  }
  return {
    selected: { name: winner.name, reason: selectionMessages.matchedCapabilities(spec.engine ?? '', gpu, spec.mode) },
    rejected: byName(rejected),
    ruleErrors,
  };
}

function capabilityMismatch(config: InferenceProviderConfig, spec: ResolvedSpec, gpu: boolean): string | undefined {
  const caps = config.spec?.capabilities ?? {};
  const engines = caps.engines ?? [];
  const modes = caps.servingModes ?? [];
  if (spec.engine === undefined) return 'engine.type is not set';
  if (!engines.includes(spec.engine)) return `engine ${spec.engine} not supported (supports: ${listOrNone(engines)})`;
  if (gpu && caps.gpuSupport !== true) return 'GPU inference not supported';
  if (!gpu && caps.cpuSupport !== true) return 'CPU inference not supported (no GPU requested)';
  if (!modes.includes(spec.mode)) return `serving mode ${spec.mode} not supported (supports: ${listOrNone(modes)})`;
  return undefined;
}

function scoreRules(provider: string, config: InferenceProviderConfig, spec: unknown): { priority?: number; explanation: string; errors: RuleError[] } {
  const rules = config.spec?.selectionRules ?? [];
  if (rules.length === 0) return { explanation: 'no selection rules (explicit selection only)', errors: [] };
  let priority: number | undefined;
  const errors: RuleError[] = [];
  rules.forEach((rule, index) => {
    const outcome = evaluateRule(rule.condition, spec);
    if (outcome.error !== undefined) errors.push({ provider, index, condition: rule.condition, error: outcome.error });
    else if (outcome.matched) priority = Math.max(priority ?? Number.NEGATIVE_INFINITY, Number.isFinite(rule.priority) ? rule.priority : 0);
  });
  if (priority !== undefined) return { priority, explanation: '', errors };
  return { explanation: ['no selection rule matched', ...errors.map(describeRuleError)].join('; '), errors };
}

function describeRequest(spec: ResolvedSpec, gpu: boolean): string {
  return `engine=${spec.engine ?? '(unset)'}, gpu=${gpu}, mode=${spec.mode}`;
}

function listOrNone(items: readonly string[]): string {
  return items.length > 0 ? items.join(', ') : 'none';
}

function byName(choices: ProviderChoice[]): ProviderChoice[] {
  return choices.sort((a, b) => compareNames(a.name, b.name));
}

// Code-unit order, not locale order: the tie-break must not depend on the process's locale.
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
