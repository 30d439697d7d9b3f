import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.ts';
import { cpuLlamacppSpec, disaggregatedSpec } from './testing/fixtures.ts';
import type { ModelDeploymentSpec } from './types.ts';

describe('applyDefaults', () => {
  it('fills the seed defaults of a minimal spec', () => {
    const spec: ModelDeploymentSpec = { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, engine: { type: 'vllm' } };
    expect(applyDefaults(spec)).toEqual({
      model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface', servedName: 'Llama-3.1-8B-Instruct' },
      engine: { type: 'vllm', trustRemoteCode: false },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 },
    });
  });

  it('leaves an omitted GPU omitted (CPU, count 0) so disaggregated rules still see no resources.gpu', () => {
    expect(applyDefaults({ engine: { type: 'llamacpp' } }).resources).toBeUndefined();
  });

  it('fills GPU count and type where a gpu object exists', () => {
    const out = applyDefaults({
      resources: { gpu: {} },
      scaling: { prefill: { gpu: { count: 2 } }, decode: { gpu: { type: 'amd.com/gpu' } } },
    });
    expect(out.resources?.gpu).toEqual({ count: 0, type: 'nvidia.com/gpu' });
    expect(out.scaling?.prefill).toEqual({ replicas: 1, gpu: { count: 2, type: 'nvidia.com/gpu' } });
    expect(out.scaling?.decode).toEqual({ replicas: 1, gpu: { count: 0, type: 'amd.com/gpu' } });
  });

  it('keeps explicit values, including scale-to-zero', () => {
    const spec: ModelDeploymentSpec = {
      model: { id: 'org/model', servedName: 'chat', source: 'huggingface' },
      serving: { mode: 'disaggregated' },
      scaling: { replicas: 0 },
    };
    const out = applyDefaults(spec);
    expect(out.model?.servedName).toBe('chat');
    expect(out.serving?.mode).toBe('disaggregated');
    expect(out.scaling?.replicas).toBe(0);
  });

  it('servedName is the last path segment of the model id', () => {
    expect(applyDefaults({ model: { id: 'a/b/c/' } }).model?.servedName).toBe('c');
    expect(applyDefaults({ model: { id: 'plain' } }).model?.servedName).toBe('plain');
  });

  it('no servedName for custom source or without an id, nor when derived fields are off', () => {
    expect(applyDefaults({ model: { source: 'custom', id: 'x/y' } }).model).toEqual({ source: 'custom', id: 'x/y' });
    expect(applyDefaults({ model: {} }).model).toEqual({ source: 'huggingface' });
    expect(applyDefaults({ model: { id: 'x/y' } }, { derivedFields: false }).model).toEqual({ id: 'x/y', source: 'huggingface' });
  });

  it('treats null like omitted, as the API server does', () => {
    const out = applyDefaults({ serving: null, scaling: { replicas: null } } as unknown as ModelDeploymentSpec);
    expect(out.serving).toEqual({ mode: 'aggregated' });
    expect(out.scaling?.replicas).toBe(1);
  });

  it('returns a new object and leaves the input untouched', () => {
    const input = disaggregatedSpec();
    const snapshot = structuredClone(input);
    const out = applyDefaults(input);
    expect(out).not.toBe(input);
    expect(out.scaling?.prefill).not.toBe(input.scaling?.prefill);
    expect(input).toEqual(snapshot);
  });

  it('leaves fields of the wrong type alone and never throws', () => {
    const garbage = { model: 'x', serving: [1], scaling: 3, resources: { gpu: 'many' } } as unknown as ModelDeploymentSpec;
    expect(applyDefaults(garbage)).toEqual(garbage);
    for (const value of [null, undefined, 3, 'x', []]) {
      expect(applyDefaults(value as unknown as ModelDeploymentSpec)).toBe(value);
    }
  });

  it('keeps what the schema does not declare (the API server prunes it) and nulls without a default', () => {
    const spec = { model: { id: 'x/y', extra: 1 }, image: null, future: { a: 1 } } as unknown as ModelDeploymentSpec;
    expect(applyDefaults(spec)).toMatchObject({ model: { id: 'x/y', extra: 1 }, image: null, future: { a: 1 } });
  });

  it('any nesting under provider.overrides (free-form, as the API server stores it) is no problem', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const out = applyDefaults({ provider: { overrides: deep } });
    expect(out.provider?.overrides).toEqual(deep);
  });

  it('the seed examples only gain defaults', () => {
    expect(applyDefaults(cpuLlamacppSpec())).toMatchObject(cpuLlamacppSpec());
  });
});
