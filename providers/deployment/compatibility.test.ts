import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { modelDeployment } from '../testing/fixtures.ts';
import { deploymentProvider } from './index.ts';

const check = (spec: ModelDeploymentSpec) => deploymentProvider.compatibility(modelDeployment('m', { ...spec, provider: { name: 'deployment', ...(spec.provider?.overrides ? { overrides: spec.provider.overrides } : {}) } }));

describe('deployment compatibility', () => {
  it('serves vLLM, SGLang and llama.cpp, on GPU or CPU, and vLLM disaggregated', () => {
    for (const spec of [gpuVllmSpec(), { ...gpuVllmSpec(), engine: { type: 'sglang' as const } }, cpuLlamacppSpec(), { ...disaggregatedSpec(), provider: undefined }]) {
      expect(check(spec)).toEqual({ compatible: true, errors: [], warnings: [] });
    }
  });

  it('refuses TensorRT-LLM, and disaggregated serving with another engine', () => {
    expect(check({ ...gpuVllmSpec(), engine: { type: 'trtllm' } }).errors).toEqual(['Kubernetes Deployment does not support trtllm engine']);
    expect(check({ ...disaggregatedSpec(), provider: undefined, engine: { type: 'sglang' } }).errors).toEqual([
      'Kubernetes Deployment supports disaggregated serving with the vllm engine only, got sglang',
    ]);
  });

  it('a model that comes with the image must be named by its path', () => {
    expect(check({ model: { source: 'custom' }, engine: { type: 'llamacpp' } }).errors[0]).toContain("model.id to be the model's path inside the image");
    expect(check({ model: { source: 'custom', id: '/models/m.gguf' }, engine: { type: 'llamacpp' } }).compatible).toBe(true);
    expect(check({ model: { source: 'custom', id: 'file:///models/m.gguf' }, engine: { type: 'llamacpp' } }).compatible).toBe(true);
  });

  it('overrides: unknown keys warn, wrong types are errors (the same rules as every provider)', () => {
    const result = check({ ...cpuLlamacppSpec(), provider: { overrides: { startupTimeoutSeconds: 'long', shmSize: '1Gi', routerMode: 'kv', command: [1] } } });
    expect(result.compatible).toBe(false);
    expect(result.errors).toEqual(['spec.provider.overrides.command[0] must be a string, got integer', 'spec.provider.overrides.startupTimeoutSeconds must be an integer, got string']);
    expect(result.warnings).toEqual(["Unknown override key 'spec.provider.overrides.routerMode' is ignored"]);
  });

  it('publishes its override schema and no selection rules in its InferenceProviderConfig', () => {
    expect(deploymentProvider.config.spec.overrideSchema).toBe(deploymentProvider.overrideSchema);
    expect(deploymentProvider.config.spec.selectionRules).toEqual([]);
    expect(deploymentProvider.resource).toMatchObject({ group: 'apps', kind: 'Deployment', versions: ['v1'], builtin: true });
  });
});
