// Specs that cannot work as written (issue 26): a replica count nobody means, a disaggregated deployment
// with one kind of worker at zero, engine.args keys no provider can pass. Errors and warnings as
// admission, `kar validate` and reconcile give them (all from validate()).
import { describe, expect, it } from 'vitest';
import { MAX_REPLICAS } from './limits.ts';
import { disaggregatedSpec, gpuVllmSpec } from './testing/fixtures.ts';
import { validate } from './validate.ts';

const withScaling = (spec: Record<string, unknown>, scaling: Record<string, unknown>) => ({ ...spec, scaling: { ...(spec.scaling as object), ...scaling } });

describe('replica counts', () => {
  it('refuses more than the hard bound, naming the field', () => {
    const result = validate(withScaling(gpuVllmSpec() as unknown as Record<string, unknown>, { replicas: 1_000_000 }));
    expect(result.errors).toEqual([{ field: 'spec.scaling.replicas', message: `spec.scaling.replicas must be at most ${MAX_REPLICAS}, got 1000000` }]);
  });

  it('warns above the usual count and admits', () => {
    const result = validate(withScaling(gpuVllmSpec() as unknown as Record<string, unknown>, { replicas: 500 }));
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'spec.scaling.replicas is 500: each replica is a model server of its own (at least one pod with its own GPUs or CPUs); more than 100 is rare, check the count',
    ]);
  });

  it('says nothing about ordinary counts', () => {
    const result = validate(withScaling(gpuVllmSpec() as unknown as Record<string, unknown>, { replicas: 100 }));
    expect(result).toEqual({ errors: [], warnings: [] });
  });
});

describe('disaggregated workers', () => {
  const disaggregated = (prefill: number | undefined, decode: number | undefined) => {
    const spec = disaggregatedSpec() as unknown as { scaling: { prefill: Record<string, unknown>; decode: Record<string, unknown> } };
    const withCount = (c: Record<string, unknown>, n: number | undefined) => (n === undefined ? Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'replicas')) : { ...c, replicas: n });
    return validate({ ...spec, scaling: { prefill: withCount(spec.scaling.prefill, prefill), decode: withCount(spec.scaling.decode, decode) } });
  };

  it('refuses zero prefill workers beside running decode workers, and the reverse', () => {
    expect(disaggregated(0, 2).errors).toEqual([
      { field: 'spec.scaling.prefill.replicas', message: expect.stringMatching(/^scaling\.prefill\.replicas is 0 but scaling\.decode\.replicas is not: /) },
    ]);
    // An omitted count is the CRD default, 1.
    expect(disaggregated(undefined, 0).errors).toEqual([
      { field: 'spec.scaling.decode.replicas', message: expect.stringMatching(/^scaling\.decode\.replicas is 0 but scaling\.prefill\.replicas is not: /) },
    ]);
  });

  it('admits both at zero (scaled to zero) and both running', () => {
    expect(disaggregated(0, 0).errors).toEqual([]);
    expect(disaggregated(1, 3).errors).toEqual([]);
  });
});

describe('engine.args keys', () => {
  it('warns about each key that is not a flag name, in the words rendering uses when it drops it', () => {
    const spec = { ...(gpuVllmSpec() as unknown as Record<string, unknown>), engine: { type: 'vllm', args: { 'max-num-seqs': '8', '--tensor-parallel-size': '2', 'bad key': 'x', '': 'y', '$(evil)': 'z' } } };
    const result = validate(spec);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.message).sort()).toEqual(
      ["engine.args key '' is not a valid flag name and is ignored", "engine.args key '$(evil)' is not a valid flag name and is ignored", "engine.args key 'bad key' is not a valid flag name and is ignored"].sort(),
    );
  });
});
