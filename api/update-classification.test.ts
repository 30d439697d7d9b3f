import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from './testing/fixtures.ts';
import type { ModelDeploymentSpec } from './types.ts';
import { classifyUpdate } from './update-classification.ts';

type Edit = (spec: ModelDeploymentSpec) => void;

describe('classifyUpdate: identity fields (seed 001 §4.11) trigger delete + recreate', () => {
  it.each<[string, Edit]>([
    ['model.id', (s) => (s.model!.id = 'meta-llama/Llama-3.1-70B-Instruct')],
    ['model.source', (s) => (s.model!.source = 'custom')],
    ['engine.type', (s) => (s.engine!.type = 'sglang')],
    ['provider.name', (s) => (s.provider = { name: 'kuberay' })],
    ['serving.mode', (s) => (s.serving = { mode: 'disaggregated' })],
  ])('%s', (path, edit) => {
    const before = gpuVllmSpec();
    const after = gpuVllmSpec();
    edit(after);
    expect(classifyUpdate(before, after).identity).toEqual([path]);
  });
});

describe('classifyUpdate: config fields (seed 001 §4.11) are updated in place', () => {
  it.each<[string, Edit]>([
    ['model.servedName', (s) => (s.model!.servedName = 'llama')],
    ['scaling.replicas', (s) => (s.scaling!.replicas = 3)],
    ['env', (s) => (s.env = [{ name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' }])],
    ['resources', (s) => (s.resources!.memory = '64Gi')],
    ['engine.args', (s) => (s.engine!.args = { quantization: 'awq' })],
    ['engine.contextLength', (s) => (s.engine!.contextLength = 4096)],
    ['engine.trustRemoteCode', (s) => (s.engine!.trustRemoteCode = true)],
    ['image', (s) => (s.image = 'vllm/vllm-openai:v0.8.0')],
    ['secrets.huggingFaceToken', (s) => (s.secrets = { huggingFaceToken: 'other' })],
    ['podTemplate.metadata', (s) => (s.podTemplate = { metadata: { labels: { team: 'a' } } })],
    ['nodeSelector', (s) => (s.nodeSelector = { pool: 'gpu' })],
    ['tolerations', (s) => (s.tolerations = [{ key: 'gpu', operator: 'Exists' }])],
    ['provider.overrides', (s) => (s.provider = { overrides: { routerMode: 'kv' } })],
  ])('%s', (path, edit) => {
    const before = gpuVllmSpec();
    const after = gpuVllmSpec();
    edit(after);
    expect(classifyUpdate(before, after)).toEqual({ identity: [], config: [path] });
  });

  it.each<[string, Edit]>([
    ['scaling.prefill', (s) => (s.scaling!.prefill!.replicas = 3)],
    ['scaling.decode', (s) => (s.scaling!.decode!.gpu = { count: 4 })],
  ])('%s.* (disaggregated workers)', (path, edit) => {
    const after = disaggregatedSpec();
    edit(after);
    expect(classifyUpdate(disaggregatedSpec(), after)).toEqual({ identity: [], config: [path] });
  });
});

describe('classifyUpdate: comparison details', () => {
  it('no change', () => {
    expect(classifyUpdate(cpuLlamacppSpec(), cpuLlamacppSpec())).toEqual({ identity: [], config: [] });
  });

  it('writing out a default is no change', () => {
    const before: ModelDeploymentSpec = { model: { id: 'org/m' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
    const after: ModelDeploymentSpec = {
      model: { id: 'org/m', source: 'huggingface', servedName: 'm' },
      engine: { type: 'vllm', trustRemoteCode: false },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 },
      resources: { gpu: { count: 1, type: 'nvidia.com/gpu' } },
    };
    expect(classifyUpdate(before, after)).toEqual({ identity: [], config: [] });
  });

  it('key order does not matter', () => {
    const after = { resources: { memory: '32Gi', gpu: { count: 1 } }, ...gpuVllmSpec() };
    expect(classifyUpdate(gpuVllmSpec(), after)).toEqual({ identity: [], config: [] });
  });

  it('a model change also changes the derived servedName', () => {
    const after = gpuVllmSpec();
    after.model!.id = 'Qwen/Qwen3-8B';
    expect(classifyUpdate(gpuVllmSpec(), after)).toEqual({ identity: ['model.id'], config: ['model.servedName'] });
  });

  it('several changes at once', () => {
    const after = gpuVllmSpec();
    after.engine = { type: 'sglang', contextLength: 4096 };
    after.image = 'custom';
    expect(classifyUpdate(gpuVllmSpec(), after)).toEqual({ identity: ['engine.type'], config: ['engine.contextLength', 'image'] });
  });

  it('a changed field the tables do not name is a config change under its own path', () => {
    const after = { ...gpuVllmSpec(), futureField: { x: 1 } } as ModelDeploymentSpec;
    expect(classifyUpdate(gpuVllmSpec(), after)).toEqual({ identity: [], config: ['futureField'] });
  });
});
