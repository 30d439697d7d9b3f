import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { modelDeployment } from '../testing/fixtures.ts';
import { kaitoCompatibility } from './compatibility.ts';

const check = (spec: ModelDeploymentSpec) => kaitoCompatibility(modelDeployment('m', spec));

describe('KAITO compatibility (seed provider-compatibility table)', () => {
  it('engine: sglang with provider: kaito → "KAITO does not support sglang engine"', () => {
    expect(check({ ...gpuVllmSpec(), engine: { type: 'sglang' } })).toEqual({
      compatible: false,
      errors: ['KAITO does not support sglang engine'],
      warnings: [],
    });
  });

  it('engine: trtllm with provider: kaito → "KAITO does not support trtllm engine"', () => {
    expect(check({ ...gpuVllmSpec(), engine: { type: 'trtllm' } }).errors).toEqual(['KAITO does not support trtllm engine']);
  });

  it('mode: disaggregated with provider: kaito → "KAITO does not support disaggregated mode"', () => {
    const spec = disaggregatedSpec();
    delete spec.provider;
    expect(check(spec).errors).toEqual(['KAITO does not support disaggregated mode']);
  });

  it('accepts the seed examples it serves: llama.cpp on CPU and vLLM on GPU', () => {
    expect(check(cpuLlamacppSpec())).toEqual({ compatible: true, errors: [], warnings: [] });
    expect(check(gpuVllmSpec())).toEqual({ compatible: true, errors: [], warnings: [] });
  });

  it('llama.cpp has no default image', () => {
    const spec = cpuLlamacppSpec();
    delete spec.image;
    expect(check(spec).errors).toEqual(['KAITO requires spec.image for the llamacpp engine (there is no default llama.cpp image)']);
  });

  it('vLLM presets need a HuggingFace model', () => {
    expect(check({ ...gpuVllmSpec(), model: { source: 'custom' }, image: 'x' }).errors).toEqual([
      'KAITO runs vllm only from HuggingFace models (model.source custom is not supported with vllm)',
    ]);
  });

  it('has no overrides: every key is an unknown-key warning, not an error', () => {
    const result = check({ ...cpuLlamacppSpec(), provider: { name: 'kaito', overrides: { routerMode: 'kv', frontend: { replicas: 2 } } } });
    expect(result.compatible).toBe(true);
    expect(result.warnings).toEqual([
      "Unknown override key 'spec.provider.overrides.frontend' is ignored",
      "Unknown override key 'spec.provider.overrides.routerMode' is ignored",
    ]);
  });
});
