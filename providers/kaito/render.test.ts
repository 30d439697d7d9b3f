import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, gpuVllmSpec } from '../../api/testing/fixtures.ts';
import { UnsupportedApiVersionError } from '../shared/api-version.ts';
import { example2, goldenText, modelDeployment, withEverything } from '../testing/fixtures.ts';
import type { Json } from '../testing/fixtures.ts';
import { kaitoProvider } from './index.ts';
import { inferenceConfigYaml } from './render.ts';

const context = { apiVersion: 'kaito.sh/v1beta1' };
const render = (md: Parameters<typeof kaitoProvider.render>[0]) => kaitoProvider.render(md, context);

describe('KAITO render: seed 001 Example 2 (gemma-cpu)', () => {
  const { objects, warnings } = render(example2());
  const workspace = objects[0] as Record<string, Json>;

  it('renders exactly one Workspace and no warnings', () => {
    expect(objects).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('matches the pinned values field for field', () => {
    expect(workspace.apiVersion).toBe('kaito.sh/v1beta1');
    expect(workspace.kind).toBe('Workspace');
    expect(workspace.metadata.name).toBe('gemma-cpu');
    expect(workspace.metadata.namespace).toBe('default');
    expect(workspace.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'kubeairunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        name: 'gemma-cpu',
        uid: 'uid-gemma-cpu',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(workspace.metadata.labels['kubeairunway.ai/model-source']).toBe('huggingface');
    expect(workspace.resource).toEqual({ count: 1, labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux' } } });
    expect(workspace.inference).toEqual({
      template: {
        spec: {
          containers: [
            {
              name: 'model',
              image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
              args: ['huggingface://google/gemma-3-1b-it-qat-q8_0-gguf/gemma-3-1b-it-q8_0.gguf', '--address=:5000'],
              ports: [{ containerPort: 5000 }],
              resources: { requests: { memory: '16Gi', cpu: '8' } },
            },
          ],
        },
      },
    });
  });

  it('keeps resource and inference at the root, not under spec', () => {
    expect(workspace).not.toHaveProperty('spec');
    expect(Object.keys(workspace)).toEqual(['apiVersion', 'inference', 'kind', 'metadata', 'resource']);
  });

  it('labels the Workspace as managed and identifies its ModelDeployment', () => {
    expect(workspace.metadata.labels).toEqual({
      'kubeairunway.ai/engine-type': 'llamacpp',
      'kubeairunway.ai/managed-by': 'kubeairunway',
      'kubeairunway.ai/model-deployment': 'gemma-cpu',
      'kubeairunway.ai/model-source': 'huggingface',
    });
  });

  it('matches the golden file', async () => {
    await expect(goldenText(render(example2()))).toMatchFileSnapshot('./__golden__/example-2-gemma-cpu.yaml');
  });
});

describe('KAITO render: variants', () => {
  it('vLLM on GPU uses the preset named by the model id and references the token secret by name', async () => {
    const result = render(modelDeployment('llama', gpuVllmSpec()));
    const [workspace, configMap] = result.objects as Array<Record<string, Json>>;
    expect(workspace?.inference.preset).toEqual({ name: 'meta-llama/Llama-3.1-8B-Instruct', presetOptions: { modelAccessSecret: 'hf-token' } });
    expect(workspace?.inference).not.toHaveProperty('template');
    expect(workspace?.resource.labelSelector.matchLabels).toEqual({ 'kubernetes.io/os': 'linux', 'nvidia.com/gpu.present': 'true' });
    // contextLength 8192 goes to KAITO's inference config.
    expect(workspace?.inference.config).toBe('llama-inference-config');
    expect(configMap?.kind).toBe('ConfigMap');
    expect(configMap?.metadata.name).toBe('llama-inference-config');
    expect(configMap?.metadata.ownerReferences[0].uid).toBe('uid-llama');
    expect(configMap?.data['inference_config.yaml']).toBe('vllm:\n  "max-model-len": 8192\n');
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/vllm-preset.yaml');
  });

  it('vLLM without engine parameters needs no ConfigMap', () => {
    const spec = gpuVllmSpec();
    delete spec.engine?.contextLength;
    const result = render(modelDeployment('plain', spec));
    expect(result.objects).toHaveLength(1);
    expect(result.objects[0]).not.toHaveProperty(['inference', 'config']);
  });

  it('vLLM with every option: parameters typed in the ConfigMap, unsupported settings warned about', async () => {
    const result = render(modelDeployment('full', { ...withEverything(gpuVllmSpec()), image: 'custom/vllm:1' }));
    expect(result.objects[1]?.data).toEqual({
      'inference_config.yaml':
        'vllm:\n  "enforce-eager": true\n  "gpu-memory-utilization": 0.9\n  "max-model-len": 8192\n  "quantization": "awq"\n  "served-model-name": "chat"\n  "trust-remote-code": true\n',
    });
    expect(result.warnings).toEqual([
      'spec.image is ignored for KAITO vLLM presets (KAITO manages the preset image)',
      'spec.env is not applied to KAITO presets',
      'spec.podTemplate.metadata is not applied to KAITO presets',
      'spec.tolerations are not applied to KAITO presets',
    ]);
    expect((result.objects[0] as Json).resource.labelSelector.matchLabels).toEqual({
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
      'nvidia.com/gpu.present': 'true',
      pool: 'gpu',
    });
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/vllm-preset-everything.yaml');
  });

  it('llama.cpp with every option: pod metadata, env, token, tolerations and llama.cpp flags', async () => {
    const spec = withEverything({ ...cpuLlamacppSpec(), engine: { type: 'llamacpp', contextLength: 4096 } });
    const result = render(modelDeployment('gemma', spec));
    const template = (result.objects[0] as Json).inference.template;
    expect(template.metadata).toEqual({ labels: { app: 'chat', team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } });
    const container = template.spec.containers[0];
    expect(container.args).toEqual([
      'huggingface://google/gemma-3-1b-it-qat-q8_0-gguf/gemma-3-1b-it-q8_0.gguf',
      '--address=:5000',
      '--alias',
      'chat',
      '--ctx-size',
      '4096',
      '--enforce-eager',
      '--gpu-memory-utilization',
      '0.9',
      '--quantization',
      'awq',
    ]);
    expect(container.env).toEqual([
      { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
      { name: 'HF_HOME', value: '/cache' },
    ]);
    expect(container.envFrom).toEqual([{ secretRef: { name: 'hf-token' } }]);
    expect(template.spec.tolerations).toEqual([{ effect: 'NoSchedule', key: 'nvidia.com/gpu', operator: 'Exists' }]);
    expect(result.warnings).toEqual(['engine.trustRemoteCode does not apply to llama.cpp and is ignored']);
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/llamacpp-everything.yaml');
  });

  it('llama.cpp on GPU asks for the GPU resource in limits', () => {
    const spec = cpuLlamacppSpec();
    spec.resources = { gpu: { count: 2, type: 'amd.com/gpu' }, memory: '16Gi' };
    const container = (render(modelDeployment('g', spec)).objects[0] as Json).inference.template.spec.containers[0];
    expect(container.resources).toEqual({ limits: { 'amd.com/gpu': '2' }, requests: { memory: '16Gi' } });
  });

  it('llama.cpp with a model pre-loaded in the image passes no model argument', () => {
    const spec = cpuLlamacppSpec();
    spec.model = { source: 'custom' };
    const container = (render(modelDeployment('c', spec)).objects[0] as Json).inference.template.spec.containers[0];
    expect(container.args).toEqual(['--address=:5000']);
  });

  it('scale to zero keeps count 0 (seed allows replicas 0)', () => {
    const spec = cpuLlamacppSpec();
    spec.scaling = { replicas: 0 };
    expect((render(modelDeployment('z', spec)).objects[0] as Json).resource.count).toBe(0);
  });

  it('propagates only kubeairunway.ai/ labels and never lets them replace controller labels', () => {
    const md = modelDeployment('labelled', cpuLlamacppSpec(), {
      labels: { 'kubeairunway.ai/team': 'a', 'kubeairunway.ai/managed-by': 'someone', app: 'x', 'example.com/kubeairunway.ai/x': 'y' },
    });
    expect((render(md).objects[0] as Json).metadata.labels).toEqual({
      'kubeairunway.ai/engine-type': 'llamacpp',
      'kubeairunway.ai/managed-by': 'kubeairunway',
      'kubeairunway.ai/model-deployment': 'labelled',
      'kubeairunway.ai/model-source': 'huggingface',
      'kubeairunway.ai/team': 'a',
    });
  });

  it('rejects an apiVersion it cannot render', () => {
    expect(() => kaitoProvider.render(example2(), { apiVersion: 'kaito.sh/v1' })).toThrow(UnsupportedApiVersionError);
  });
});

describe('inferenceConfigYaml', () => {
  it('sorts keys and quotes every key and string', () => {
    expect(inferenceConfigYaml({ b: 'x: y', a: 1, c: false })).toBe('vllm:\n  "a": 1\n  "b": "x: y"\n  "c": false\n');
  });
});
