import { describe, expect, it } from 'vitest';
import type { Condition, InferenceProviderConfig } from '../../api/types.ts';
import type { RuleError } from '../../providers/rule-errors.ts';
import { rulesValidUpdates } from './rules-valid.ts';

const NOW = '2026-02-04T10:00:00Z';
const spec = { model: { id: 'org/m' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };

function config(name: string, conditions: string[], generation: number, status: Condition[] = []): InferenceProviderConfig {
  return {
    metadata: { name, generation, resourceVersion: `rv-${generation}` },
    spec: { selectionRules: conditions.map((condition) => ({ condition, priority: 1 })) },
    status: { ready: true, conditions: status },
  };
}
const failing = (provider: string, index: number, condition: string, error: string): RuleError => ({ provider, index, condition, error });

describe('rulesValidUpdates', () => {
  it('a rule that fails sets RulesValid=False naming the rule and the error, for the config generation', () => {
    const acme = config('acme', ['true', '1 / 0 == 1'], 3);
    const updates = rulesValidUpdates([acme, config('other', ['true'], 1)], [failing('acme', 1, '1 / 0 == 1', 'division by zero')], spec, NOW);
    expect(updates).toEqual([
      {
        provider: 'acme',
        condition: {
          type: 'RulesValid',
          status: 'False',
          reason: 'RuleEvaluationFailed',
          message: 'rule 2 (1 / 0 == 1) failed: division by zero; a failing rule counts as not matching',
          lastTransitionTime: NOW,
          observedGeneration: 3,
        },
      },
    ]);
  });

  it('a rule stored without compiling is reported as such', () => {
    const [update] = rulesValidUpdates([config('acme', ['spec.engine ==='], 1)], [failing('acme', 0, 'spec.engine ===', 'Unexpected token')], spec, NOW);
    expect(update?.condition).toMatchObject({ status: 'False', reason: 'RuleCompileFailed' });
  });

  it('the same failure again writes nothing', () => {
    const error = failing('acme', 1, '1 / 0 == 1', 'division by zero');
    const [first] = rulesValidUpdates([config('acme', ['true', '1 / 0 == 1'], 3)], [error], spec, NOW);
    expect(rulesValidUpdates([config('acme', ['true', '1 / 0 == 1'], 3, [first!.condition])], [error], spec, '2026-02-04T11:00:00Z')).toEqual([]);
  });

  it('a False left from older rules is cleared once the current rules evaluate cleanly, guarded by resourceVersion', () => {
    const old: Condition = { type: 'RulesValid', status: 'False', reason: 'RuleEvaluationFailed', message: 'rule 1 ...', lastTransitionTime: NOW, observedGeneration: 1 };
    const updates = rulesValidUpdates([config('acme', ["spec.engine.type == 'vllm'"], 2, [old])], [], spec, '2026-02-04T12:00:00Z');
    expect(updates).toEqual([
      {
        provider: 'acme',
        resourceVersion: 'rv-2',
        condition: {
          type: 'RulesValid',
          status: 'True',
          reason: 'RulesEvaluated',
          message: 'Every selection rule evaluated without error since generation 2',
          lastTransitionTime: '2026-02-04T12:00:00Z',
          observedGeneration: 2,
        },
      },
    ]);
  });

  it('a False for the current rules stays, and nothing is written for configs never seen failing', () => {
    const current: Condition = { type: 'RulesValid', status: 'False', reason: 'RuleEvaluationFailed', message: 'x', observedGeneration: 2 };
    expect(rulesValidUpdates([config('acme', ['true'], 2, [current]), config('quiet', ['true'], 5)], [], spec, NOW)).toEqual([]);
    // Edited, but the new rules still fail on this spec: no clearing.
    const stale = { ...current, observedGeneration: 1 };
    expect(rulesValidUpdates([config('acme', ['spec.nothing.here'], 2, [stale])], [], spec, NOW)).toEqual([]);
  });
});
