import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../api/testing/fixtures.ts';
import type { InferenceProviderConfig, ModelDeploymentSpec } from '../api/types.ts';
import { builtinProviders, selectProvider } from './index.ts';
import { modelDeployment } from './testing/fixtures.ts';

const ready = (config: InferenceProviderConfig, isReady = true): InferenceProviderConfig => ({ ...config, status: { ready: isReady } });
/** The seed's three providers (§4.4): the answers below are the seed's, with or without `deployment` installed (see the end). */
const SEED_PROVIDERS = ['dynamo', 'kaito', 'kuberay'];
const seedProviders = () => builtinProviders.filter((p) => SEED_PROVIDERS.includes(p.name));
const builtins = (): InferenceProviderConfig[] => seedProviders().map((p) => ready(p.config));
const without = (name: string): InferenceProviderConfig[] => builtins().filter((c) => c.metadata.name !== name);
const select = (spec: ModelDeploymentSpec, configs = builtins(), selectorEnabled = true) =>
  selectProvider(modelDeployment('m', spec), configs, { selectorEnabled });

function auto(spec: ModelDeploymentSpec): ModelDeploymentSpec {
  const copy = structuredClone(spec);
  delete copy.provider;
  return copy;
}

function thirdParty(name: string, rules: Array<{ condition: string; priority: number }>, engines = ['vllm']): InferenceProviderConfig {
  return ready({
    metadata: { name },
    spec: { capabilities: { engines, servingModes: ['aggregated'], gpuSupport: true, cpuSupport: false }, selectionRules: rules },
  });
}

describe('selectProvider: seed 001 §4.4 with the built-in configurations', () => {
  it('no GPU requested → kaito (seed Example 2), with the seed selectedReason', () => {
    expect(select(cpuLlamacppSpec())).toEqual({
      ruleErrors: [],
      selected: { name: 'kaito', reason: 'matched capabilities: engine=llamacpp, gpu=false, mode=aggregated' },
      rejected: [
        { name: 'dynamo', reason: 'engine llamacpp not supported (supports: vllm, sglang, trtllm)' },
        { name: 'kuberay', reason: 'engine llamacpp not supported (supports: vllm)' },
      ],
    });
  });

  it('resources.gpu omitted counts as gpu.count 0 → kaito', () => {
    const spec = cpuLlamacppSpec();
    delete spec.resources;
    expect(select(spec).selected).toEqual({ name: 'kaito', reason: 'matched capabilities: engine=llamacpp, gpu=false, mode=aggregated' });
    const vllmNoGpu: ModelDeploymentSpec = { model: { id: 'x/y' }, engine: { type: 'vllm' } };
    const result = select(vllmNoGpu);
    expect(result.selected?.name).toBe('kaito');
    expect(result.rejected).toEqual([
      { name: 'dynamo', reason: 'CPU inference not supported (no GPU requested)' },
      { name: 'kuberay', reason: 'CPU inference not supported (no GPU requested)' },
    ]);
  });

  it('engine=trtllm or sglang → dynamo (only provider for them)', () => {
    for (const type of ['trtllm', 'sglang'] as const) {
      const result = select({ ...gpuVllmSpec(), engine: { type } });
      expect(result.selected).toEqual({ name: 'dynamo', reason: `matched capabilities: engine=${type}, gpu=true, mode=aggregated` });
      expect(result.rejected).toEqual([
        { name: 'kaito', reason: `engine ${type} not supported (supports: vllm, llamacpp)` },
        { name: 'kuberay', reason: `engine ${type} not supported (supports: vllm)` },
      ]);
    }
  });

  it('engine=llamacpp with a GPU → kaito (only llamacpp provider)', () => {
    const spec = cpuLlamacppSpec();
    spec.resources = { gpu: { count: 1 } };
    expect(select(spec).selected).toEqual({ name: 'kaito', reason: 'matched capabilities: engine=llamacpp, gpu=true, mode=aggregated' });
  });

  it('mode=disaggregated → dynamo; GPUs in prefill/decode count as GPU; kaito filtered by capability', () => {
    expect(select(auto(disaggregatedSpec()))).toEqual({
      ruleErrors: [],
      selected: { name: 'dynamo', reason: 'matched capabilities: engine=vllm, gpu=true, mode=disaggregated' },
      rejected: [
        { name: 'kaito', reason: 'serving mode disaggregated not supported (supports: aggregated)' },
        { name: 'kuberay', reason: 'no selection rules (explicit selection only)' },
      ],
    });
  });

  it('default GPU vLLM → dynamo (seed Example 1)', () => {
    expect(select(gpuVllmSpec())).toEqual({
      ruleErrors: [],
      selected: { name: 'dynamo', reason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated' },
      rejected: [
        { name: 'kaito', reason: "priority 10 is lower than dynamo's 50" },
        { name: 'kuberay', reason: 'no selection rules (explicit selection only)' },
      ],
    });
  });

  it('KubeRay is never auto-selected, even when it is the only provider that fits', () => {
    const result = select(auto(disaggregatedSpec()), without('dynamo'));
    expect(result.selected).toBeUndefined();
    expect(result.error).toBe('No compatible provider found for engine=vllm, gpu=true, mode=disaggregated');
    expect(result.rejected).toEqual([
      { name: 'kaito', reason: 'serving mode disaggregated not supported (supports: aggregated)' },
      { name: 'kuberay', reason: 'no selection rules (explicit selection only)' },
    ]);
    expect(select(gpuVllmSpec(), without('dynamo')).selected?.name).toBe('kaito');
  });

  it('explicit provider: "explicit provider selection", no readiness needed, even with the selector disabled (seed Example 3)', () => {
    expect(select(disaggregatedSpec(), [])).toEqual({ selected: { name: 'dynamo', reason: 'explicit provider selection' }, rejected: [], ruleErrors: [] });
    expect(select({ ...gpuVllmSpec(), provider: { name: 'kuberay' } }, builtins(), false).selected).toEqual({
      name: 'kuberay',
      reason: 'explicit provider selection',
    });
  });

  it('a provider already recorded in status is kept (one-time selection; custom selectors)', () => {
    const md = modelDeployment('m', gpuVllmSpec());
    md.status = { provider: { name: 'kaito', selectedReason: 'team policy' } };
    expect(selectProvider(md, builtins(), { selectorEnabled: false })).toEqual({
      ruleErrors: [],
      selected: { name: 'kaito', reason: 'team policy' },
      rejected: [],
    });
  });

  it('selector disabled and no provider named → the seed message', () => {
    expect(select(gpuVllmSpec(), builtins(), false)).toEqual({
      ruleErrors: [],
      error: 'No provider specified and provider-selector not installed',
      rejected: [],
    });
  });

  it('no ready provider → "No healthy providers available", each listed as not ready', () => {
    const configs = seedProviders().map((p) => ready(p.config, false));
    expect(select(gpuVllmSpec(), configs)).toEqual({
      ruleErrors: [],
      error: 'No healthy providers available',
      rejected: [
        { name: 'dynamo', reason: 'not ready (status.ready is not true)' },
        { name: 'kaito', reason: 'not ready (status.ready is not true)' },
        { name: 'kuberay', reason: 'not ready (status.ready is not true)' },
      ],
    });
    expect(select(gpuVllmSpec(), []).error).toBe('No healthy providers available');
    // A config without status has not reported readiness.
    expect(select(gpuVllmSpec(), seedProviders().map((p) => p.config)).error).toBe('No healthy providers available');
  });

  it('a not-ready provider is skipped in favour of a ready one', () => {
    const configs = builtins().map((c) => (c.metadata.name === 'dynamo' ? ready(c, false) : c));
    const result = select(gpuVllmSpec(), configs);
    expect(result.selected?.name).toBe('kaito');
    expect(result.rejected).toContainEqual({ name: 'dynamo', reason: 'not ready (status.ready is not true)' });
  });
});

describe('selectProvider: scoring, tie-breaks and rule errors', () => {
  it('a third-party rule outranks the defaults (seed §3.14 example)', () => {
    const newframework = thirdParty('newframework', [{ condition: "spec.model.id.startsWith('newframework/')", priority: 100 }], ['vllm', 'custom']);
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), model: { id: 'newframework/model-7b' } };
    const result = select(spec, [...builtins(), newframework]);
    expect(result.selected?.name).toBe('newframework');
    expect(result.rejected).toContainEqual({ name: 'dynamo', reason: "priority 50 is lower than newframework's 100" });
  });

  it('score is the highest matching priority', () => {
    const a = thirdParty('a', [
      { condition: 'true', priority: 5 },
      { condition: 'true', priority: 70 },
      { condition: 'false', priority: 99 },
    ]);
    const result = select(gpuVllmSpec(), [...builtins(), a]);
    expect(result.selected?.name).toBe('a');
    expect(result.rejected).toContainEqual({ name: 'dynamo', reason: "priority 50 is lower than a's 70" });
  });

  it('equal priorities go to the alphabetically first name, whatever the list order', () => {
    const zeta = thirdParty('zeta', [{ condition: 'true', priority: 100 }]);
    const alpha = thirdParty('alpha', [{ condition: 'true', priority: 100 }]);
    for (const configs of [[zeta, alpha], [alpha, zeta]]) {
      expect(select(gpuVllmSpec(), configs)).toEqual({
        ruleErrors: [],
        selected: { name: 'alpha', reason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated' },
        rejected: [{ name: 'zeta', reason: 'same priority 100 as alpha, which comes first alphabetically' }],
      });
    }
  });

  it('tie-break is by code unit, not locale ("Zeta" sorts before "alpha")', () => {
    const upper = thirdParty('Zeta', [{ condition: 'true', priority: 1 }]);
    const lower = thirdParty('alpha', [{ condition: 'true', priority: 1 }]);
    expect(select(gpuVllmSpec(), [lower, upper]).selected?.name).toBe('Zeta');
  });

  it('a rule that fails to evaluate does not match, and the reason says why', () => {
    const strict = thirdParty('strict', [{ condition: 'spec.resources.gpu.count > 0 && spec.scaling.prefill.replicas > 1', priority: 100 }]);
    const result = select(gpuVllmSpec(), [...builtins(), strict]);
    expect(result.selected?.name).toBe('dynamo');
    expect(result.rejected).toContainEqual({
      name: 'strict',
      reason: 'no selection rule matched; rule 1 (spec.resources.gpu.count > 0 && spec.scaling.prefill.replicas > 1) failed: No such key: prefill',
    });
  });

  it('a broken rule does not hide a matching one of the same provider', () => {
    const mixed = thirdParty('mixed', [
      { condition: 'spec.nothing.here', priority: 500 },
      { condition: 'true', priority: 60 },
    ]);
    expect(select(gpuVllmSpec(), [...builtins(), mixed]).selected?.name).toBe('mixed');
  });

  it('syntax errors, type errors and non-boolean results are explained', () => {
    const broken = thirdParty('broken', [
      { condition: 'spec.engine.type ==', priority: 100 },
      { condition: 'spec.resources.gpu.count + 1', priority: 100 },
      { condition: 'unknownVar == 1', priority: 100 },
      { condition: 'spec.engine', priority: 100 },
    ]);
    const reason = select(gpuVllmSpec(), [broken]).rejected[0]?.reason ?? '';
    expect(reason).toMatch(/^no selection rule matched; rule 1 \(spec\.engine\.type ==\) failed: /);
    expect(reason).toContain('rule 2 (spec.resources.gpu.count + 1) failed: condition has type ');
    expect(reason).toContain('rule 3 (unknownVar == 1) failed: Unknown variable: unknownVar');
    expect(reason).toContain('rule 4 (spec.engine) failed: evaluated to a map, not a bool');
  });

  it('every failing rule is listed in ruleErrors, also those of the winner and of a provider that lost on priority', () => {
    const winner = thirdParty('winner', [
      { condition: '1 / 0 == 1', priority: 900 },
      { condition: 'true', priority: 800 },
    ]);
    const loser = thirdParty('loser', [
      { condition: 'true', priority: 10 },
      { condition: 'spec.scaling.prefill.replicas > 1', priority: 999 },
    ]);
    const result = select(gpuVllmSpec(), [loser, winner]);
    expect(result.selected?.name).toBe('winner');
    expect(result.ruleErrors).toEqual([
      { provider: 'loser', index: 1, condition: 'spec.scaling.prefill.replicas > 1', error: 'No such key: prefill' },
      { provider: 'winner', index: 0, condition: '1 / 0 == 1', error: 'division by zero' },
    ]);
    expect(result.rejected).toEqual([
      { name: 'loser', reason: "priority 10 is lower than winner's 800; rule 2 (spec.scaling.prefill.replicas > 1) failed: No such key: prefill" },
    ]);
  });

  it('rules of providers filtered out before scoring are not evaluated, so they report nothing', () => {
    const cpuOnly = thirdParty('cpu-only', [{ condition: '1 / 0 == 1', priority: 1 }], ['llamacpp']);
    expect(select(gpuVllmSpec(), [...builtins(), cpuOnly]).ruleErrors).toEqual([]);
  });

  it('lists rejected providers in name order', () => {
    const names = select(gpuVllmSpec(), [thirdParty('b', []), thirdParty('a', []), ...builtins()]).rejected.map((r) => r.name);
    expect(names).toEqual([...names].sort());
  });

  it('a spec without engine.type fits no provider', () => {
    const result = select({ model: { id: 'x' }, resources: { gpu: { count: 1 } } });
    expect(result.error).toBe('No compatible provider found for engine=(unset), gpu=true, mode=aggregated');
    expect(result.rejected.every((r) => r.reason === 'engine.type is not set')).toBe(true);
  });
});

describe('selectProvider: the deployment provider changes no automatic answer', () => {
  const withDeployment = (): InferenceProviderConfig[] => builtinProviders.map((p) => ready(p.config));
  const specs: Array<[string, ModelDeploymentSpec]> = [
    ['CPU llama.cpp (Example 2)', cpuLlamacppSpec()],
    ['GPU llama.cpp', { ...cpuLlamacppSpec(), resources: { gpu: { count: 1 } } }],
    ['GPU vLLM (Example 1)', gpuVllmSpec()],
    ['vLLM, 4 GPUs', { ...gpuVllmSpec(), resources: { gpu: { count: 4 } } }],
    ['vLLM without GPU', { model: { id: 'x/y' }, engine: { type: 'vllm' } }],
    ['SGLang', { ...gpuVllmSpec(), engine: { type: 'sglang' } }],
    ['TensorRT-LLM', { ...gpuVllmSpec(), engine: { type: 'trtllm' } }],
    ['disaggregated vLLM (Example 3, no provider named)', auto(disaggregatedSpec())],
  ];

  it.each(specs)('%s: the same provider (or the same error) with and without it', (_name, spec) => {
    const seed = select(spec, builtins());
    const all = select(spec, withDeployment());
    expect(all.selected).toEqual(seed.selected);
    expect(all.error).toEqual(seed.error);
    expect(all.rejected.map((r) => r.name)).toContain('deployment');
  });

  it('the same when Dynamo is down: KAITO or no provider, never deployment', () => {
    for (const [, spec] of specs) {
      const seed = select(spec, without('dynamo'));
      const all = select(spec, withDeployment().filter((c) => c.metadata.name !== 'dynamo'));
      expect(all.selected).toEqual(seed.selected);
      expect(all.error).toEqual(seed.error);
    }
  });

  it('chosen when named, or by a rule an operator adds to its config', () => {
    expect(select({ ...cpuLlamacppSpec(), provider: { name: 'deployment' } }, withDeployment()).selected).toEqual({ name: 'deployment', reason: 'explicit provider selection' });
    const configs = withDeployment().map((c) => (c.metadata.name === 'deployment' ? { ...c, spec: { ...c.spec, selectionRules: [{ condition: 'true', priority: 200 }] } } : c));
    expect(select(cpuLlamacppSpec(), configs).selected?.name).toBe('deployment');
  });
});
