import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { modelDeployment } from '../testing/fixtures.ts';
import { dynamoCompatibility } from './compatibility.ts';

const check = (spec: ModelDeploymentSpec) => dynamoCompatibility(modelDeployment('m', spec));

describe('Dynamo compatibility (seed provider-compatibility table)', () => {
  it('engine: llamacpp with provider: dynamo → "Dynamo does not support llamacpp engine"', () => {
    expect(check({ ...gpuVllmSpec(), engine: { type: 'llamacpp' } })).toEqual({
      compatible: false,
      errors: ['Dynamo does not support llamacpp engine'],
      warnings: [],
    });
  });

  it('gpu.count: 0 with provider: dynamo → "Dynamo requires GPU (set resources.gpu.count > 0)"', () => {
    const errors = check({ ...gpuVllmSpec(), resources: { gpu: { count: 0 } } }).errors;
    expect(errors).toEqual(['Dynamo requires GPU (set resources.gpu.count > 0)']);
    // Seed 000 has the same row without the hint; the message starts with its words.
    expect(errors[0]?.startsWith('Dynamo requires GPU')).toBe(true);
  });

  it('llama.cpp on CPU fails both rows', () => {
    expect(check(cpuLlamacppSpec()).errors).toEqual(['Dynamo does not support llamacpp engine', 'Dynamo requires GPU (set resources.gpu.count > 0)']);
  });

  it('prefill/decode GPUs count as GPU in disaggregated mode (seed Example 3 is compatible)', () => {
    expect(check(disaggregatedSpec())).toEqual({ compatible: true, errors: [], warnings: [] });
  });

  it('accepts vllm, sglang and trtllm on GPU', () => {
    for (const type of ['vllm', 'sglang', 'trtllm'] as const) expect(check({ ...gpuVllmSpec(), engine: { type } }).compatible).toBe(true);
  });

  it('overrides: wrong types are errors, unknown keys (at any depth) warnings (seed §4.15)', () => {
    const result = check({
      ...gpuVllmSpec(),
      provider: { name: 'dynamo', overrides: { routerMode: 'fast', frontend: { replicsa: 2, replicas: 'two', resources: { cpu: 'four', memory: 16 } } } },
    });
    expect(result.compatible).toBe(false);
    expect(result.errors).toEqual([
      'spec.provider.overrides.frontend.replicas must be an integer, got string',
      'spec.provider.overrides.frontend.resources.cpu must be a Kubernetes quantity such as 16Gi or 500m, got "four"',
      'spec.provider.overrides.routerMode must be one of kv, round-robin, none, got "fast"',
    ]);
    expect(result.warnings).toEqual(["Unknown override key 'spec.provider.overrides.frontend.replicsa' is ignored"]);
  });
});
