import { describe, expect, it } from 'vitest';
import { cachedRuleCount, compileRule, evaluateRule } from './cel.ts';

describe('CEL rules', () => {
  it("evaluates the seed's example rules (§3.9, §3.14)", () => {
    expect(evaluateRule('has(spec.resources.gpu) && spec.resources.gpu.count > 0', { resources: { gpu: { count: 1 } } })).toEqual({ matched: true });
    expect(evaluateRule("spec.engine.type == 'llamacpp'", { engine: { type: 'llamacpp' } })).toEqual({ matched: true });
    expect(evaluateRule("spec.model.id.startsWith('newframework/')", { model: { id: 'newframework/x' } })).toEqual({ matched: true });
    expect(evaluateRule("spec.model.id.startsWith('newframework/')", { model: { id: 'other/x' } })).toEqual({ matched: false });
  });

  it('compares JSON numbers with int literals', () => {
    expect(evaluateRule('spec.resources.gpu.count == 0', { resources: { gpu: { count: 0 } } })).toEqual({ matched: true });
    expect(evaluateRule('spec.resources.gpu.count > 1', { resources: { gpu: { count: 2 } } })).toEqual({ matched: true });
  });

  it('reads whole numbers as ints, as the API server does: int arithmetic works, doubles stay doubles', () => {
    expect(evaluateRule('spec.resources.gpu.count - 1 == 1', { resources: { gpu: { count: 2 } } })).toEqual({ matched: true });
    expect(evaluateRule('spec.scaling.replicas * 2 > 3', { scaling: { replicas: 2 } })).toEqual({ matched: true });
    expect(evaluateRule('spec.resources.gpu.count > 0.5', { resources: { gpu: { count: 1 } } })).toEqual({ matched: true });
    expect(evaluateRule('spec.provider.overrides.ratio * 2.0 == 1.0', { provider: { overrides: { ratio: 0.5 } } })).toEqual({ matched: true });
    expect(evaluateRule('size(spec.env) == 1', { env: [{ name: 'A', value: 'b' }] })).toEqual({ matched: true });
  });

  it("the seed's KAITO rule raises no such key when spec.resources is omitted; the built-in one is guarded", () => {
    expect(evaluateRule('!has(spec.resources.gpu) || spec.resources.gpu.count == 0', {})).toEqual({
      matched: false,
      error: 'No such key: resources',
    });
    expect(evaluateRule('!has(spec.resources) || !has(spec.resources.gpu) || spec.resources.gpu.count == 0', {})).toEqual({ matched: true });
  });

  it('ignores undefined fields in the spec', () => {
    expect(evaluateRule('has(spec.image)', { image: undefined })).toEqual({ matched: false });
  });

  it('caches compiled programs by expression text', () => {
    const expression = `spec.engine.type == 'cache-${Math.random()}'`;
    const before = cachedRuleCount();
    const first = compileRule(expression);
    expect(cachedRuleCount()).toBe(before + 1);
    expect(compileRule(expression)).toBe(first);
    expect(cachedRuleCount()).toBe(before + 1);
  });

  it('caches compile errors too', () => {
    const first = compileRule('1 +');
    expect(first.error).toBe('Unexpected token: EOF');
    expect(compileRule('1 +')).toBe(first);
  });
});
