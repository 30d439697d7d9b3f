import { describe, expect, it } from 'vitest';
import { describeRuleError, ruleErrorEvent, selectionRuleCompileErrors, withRuleErrors, type RuleError } from './rule-errors.ts';

const missingKey: RuleError = { provider: 'acme', index: 1, condition: 'spec.scaling.prefill.replicas > 1', error: 'No such key: scaling' };

describe('rule error texts', () => {
  it('name the provider, the rule (numbered from 1) with its text, and the error', () => {
    expect(describeRuleError(missingKey)).toBe('rule 2 (spec.scaling.prefill.replicas > 1) failed: No such key: scaling');
    expect(ruleErrorEvent(missingKey)).toEqual({
      type: 'Warning',
      reason: 'ProviderRuleError',
      message: "Provider 'acme' selection rule 2 (spec.scaling.prefill.replicas > 1) failed: No such key: scaling; counted as not matching",
    });
  });

  it('a "nothing selected" message keeps its words and gains the failures', () => {
    expect(withRuleErrors('No compatible provider found for engine=vllm, gpu=true, mode=aggregated', [])).toBe(
      'No compatible provider found for engine=vllm, gpu=true, mode=aggregated',
    );
    expect(withRuleErrors('No compatible provider found', [missingKey])).toBe(
      "No compatible provider found; provider 'acme' rule 2 (spec.scaling.prefill.replicas > 1) failed: No such key: scaling",
    );
  });
});

describe('selectionRuleCompileErrors (admission)', () => {
  it('accepts rules that compile, including ones that fail only on some specs', () => {
    const spec = {
      selectionRules: [
        { condition: "spec.engine.type == 'llamacpp'", priority: 100 },
        { condition: '1 / 0 == 1', priority: 1 },
        { condition: 'spec.scaling.prefill.replicas > 1', priority: 1 },
      ],
    };
    expect(selectionRuleCompileErrors(spec)).toEqual([]);
  });

  it('names each rule that does not compile: its field, number, text and the compiler error', () => {
    const spec = {
      selectionRules: [
        { condition: 'true', priority: 1 },
        { condition: 'spec.engine.type ==', priority: 1 },
        { condition: 'spec.resources.gpu.count + 1', priority: 1 },
        { condition: 'unknownVar == 1', priority: 1 },
      ],
    };
    expect(selectionRuleCompileErrors(spec)).toEqual([
      { field: 'spec.selectionRules[1].condition', message: 'spec.selectionRules[1].condition: rule 2 (spec.engine.type ==) does not compile: Unexpected token: EOF' },
      { field: 'spec.selectionRules[2].condition', message: 'spec.selectionRules[2].condition: rule 3 (spec.resources.gpu.count + 1) does not compile: condition has type int, not bool' },
      { field: 'spec.selectionRules[3].condition', message: 'spec.selectionRules[3].condition: rule 4 (unknownVar == 1) does not compile: Unknown variable: unknownVar' },
    ]);
  });

  it('leaves shapes that are not rules to the CRD schema', () => {
    for (const spec of [undefined, null, 'x', {}, { selectionRules: 'x' }, { selectionRules: [null, 3, {}, { condition: 7 }] }]) {
      expect(selectionRuleCompileErrors(spec)).toEqual([]);
    }
  });
});
