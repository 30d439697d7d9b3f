import { describe, expect, it } from 'vitest';
import { disaggregatedSpec, gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { modelDeployment } from '../testing/fixtures.ts';
import { kuberayCompatibility } from './compatibility.ts';

const check = (spec: ModelDeploymentSpec) => kuberayCompatibility(modelDeployment('m', spec));

describe('KubeRay compatibility (seed provider-compatibility table)', () => {
  it('engine: llamacpp with provider: kuberay → "KubeRay does not support llamacpp engine"', () => {
    expect(check({ ...gpuVllmSpec(), engine: { type: 'llamacpp' } }).errors).toEqual(['KubeRay does not support llamacpp engine']);
  });

  it('engine: sglang with provider: kuberay → "KubeRay does not support sglang engine"', () => {
    expect(check({ ...gpuVllmSpec(), engine: { type: 'sglang' } }).errors).toEqual(['KubeRay does not support sglang engine']);
  });

  it('engine: trtllm with provider: kuberay → "KubeRay does not support trtllm engine"', () => {
    expect(check({ ...gpuVllmSpec(), engine: { type: 'trtllm' } }).errors).toEqual(['KubeRay does not support trtllm engine']);
  });

  it('gpu.count: 0 with provider: kuberay → "KubeRay requires GPU (set resources.gpu.count > 0)"', () => {
    const errors = check({ ...gpuVllmSpec(), resources: { gpu: { count: 0 } } }).errors;
    expect(errors).toEqual(['KubeRay requires GPU (set resources.gpu.count > 0)']);
    expect(errors[0]?.startsWith('KubeRay requires GPU')).toBe(true);
  });

  it('accepts vLLM on GPU, aggregated and disaggregated', () => {
    expect(check(gpuVllmSpec())).toEqual({ compatible: true, errors: [], warnings: [] });
    expect(check({ ...disaggregatedSpec(), provider: { name: 'kuberay' } })).toEqual({ compatible: true, errors: [], warnings: [] });
  });

  it('custom source needs the model path in model.id', () => {
    expect(check({ ...gpuVllmSpec(), model: { source: 'custom' } }).errors).toEqual([
      'KubeRay requires model.id (the model path inside the image) when model.source is custom',
    ]);
  });

  it('overrides: head.rayStartParams must map to strings; unknown keys warn', () => {
    const result = check({
      ...gpuVllmSpec(),
      provider: { name: 'kuberay', overrides: { head: { rayStartParams: { 'num-cpus': 0 } }, routerMode: 'kv' } },
    });
    expect(result.errors).toEqual(['spec.provider.overrides.head.rayStartParams.num-cpus must be a string, got integer']);
    expect(result.warnings).toEqual(["Unknown override key 'spec.provider.overrides.routerMode' is ignored"]);
  });

  it('overrides: head resources are Kubernetes quantities, strings or numbers', () => {
    const head = (resources: unknown) => check({ ...gpuVllmSpec(), provider: { name: 'kuberay', overrides: { head: { resources } } } });
    expect(head({ cpu: 4, memory: 16 }).errors).toEqual([]);
    expect(head({ cpu: '500m', memory: '16Gi' }).errors).toEqual([]);
    expect(head({ memory: '16 GB' }).errors).toEqual([
      'spec.provider.overrides.head.resources.memory must be a Kubernetes quantity such as 16Gi or 500m, got "16 GB"',
    ]);
  });
});
