import { describe, expect, it } from 'vitest';
import { gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { example1, example3, goldenText, modelDeployment, withEverything } from '../testing/fixtures.ts';
import type { Json } from '../testing/fixtures.ts';
import { dynamoProvider } from './index.ts';

const context = { apiVersion: 'nvidia.com/v1alpha1' };
const render = (md: Parameters<typeof dynamoProvider.render>[0]) => dynamoProvider.render(md, context);
const services = (spec: ModelDeploymentSpec, name = 'm'): Record<string, Json> =>
  (render(modelDeployment(name, spec)).objects[0] as Json).spec.services;

const ownerRef = (name: string) => ({
  apiVersion: 'kubeairunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  name,
  uid: `uid-${name}`,
  controller: true,
  blockOwnerDeletion: true,
});

describe('Dynamo render: seed 001 Example 1 (llama-8b, aggregated)', () => {
  const result = render(example1());
  const graph = result.objects[0] as Record<string, Json>;

  it('renders one DynamoGraphDeployment without warnings', () => {
    expect(result.objects).toHaveLength(1);
    expect(result.warnings).toEqual([]);
  });

  it('matches the pinned values field for field', () => {
    expect(graph.apiVersion).toBe('nvidia.com/v1alpha1');
    expect(graph.kind).toBe('DynamoGraphDeployment');
    expect(graph.metadata).toMatchObject({ name: 'llama-8b', namespace: 'default', ownerReferences: [ownerRef('llama-8b')] });
    expect(graph.spec.backendFramework).toBe('vllm');
    expect(Object.keys(graph.spec.services)).toEqual(['Frontend', 'VllmWorker']);

    const frontend = graph.spec.services.Frontend;
    expect(frontend).toMatchObject({
      componentType: 'frontend',
      dynamoNamespace: 'llama-8b',
      replicas: 1,
      envFromSecret: 'hf-token',
      extraPodSpec: { mainContainer: { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1' } },
    });

    const worker = graph.spec.services.VllmWorker;
    expect(worker.componentType).toBe('worker');
    expect(worker.dynamoNamespace).toBe('llama-8b');
    expect(worker.replicas).toBe(1);
    expect(worker.envFromSecret).toBe('hf-token');
    expect(worker.resources).toEqual({ limits: { gpu: '1', memory: '32Gi' } });
    expect(worker.extraPodSpec).toEqual({
      mainContainer: {
        image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1',
        command: ['/bin/sh', '-c'],
        args: ['python3 -m dynamo.vllm --model meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192'],
      },
    });
    expect(worker).not.toHaveProperty('subComponentType');
  });

  it('gives the Frontend the §4.15 defaults the example leaves out (router mode as DYN_ROUTER_MODE, no `router-mode` key)', () => {
    expect(graph.spec.services.Frontend.extraPodSpec.mainContainer.env).toEqual([{ name: 'DYN_ROUTER_MODE', value: 'round-robin' }]);
    expect(graph.spec.services.Frontend).not.toHaveProperty('router-mode');
    expect(graph.spec.services.Frontend.resources).toEqual({ requests: { cpu: '2', memory: '4Gi' } });
  });

  it('renders the same with the webhook defaults applied (servedName = basename renders no flag)', async () => {
    const { applyDefaults } = await import('../../api/defaults.ts');
    const md = example1();
    const defaulted = { ...md, spec: applyDefaults(md.spec) };
    expect(defaulted.spec.model?.servedName).toBe('Llama-3.1-8B-Instruct');
    expect(JSON.stringify(render(defaulted))).toBe(JSON.stringify(render(md)));
  });

  it('matches the golden file', async () => {
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/example-1-llama-8b.yaml');
  });
});

describe('Dynamo render: seed 001 Example 3 (llama-70b-pd, disaggregated)', () => {
  const result = render(example3());
  const graph = result.objects[0] as Record<string, Json>;
  const s = graph.spec.services;

  it('matches the pinned values field for field', () => {
    expect(graph.metadata).toMatchObject({ name: 'llama-70b-pd', namespace: 'default', ownerReferences: [ownerRef('llama-70b-pd')] });
    expect(graph.spec.backendFramework).toBe('vllm');
    expect(Object.keys(s).sort()).toEqual(['Frontend', 'VllmDecodeWorker', 'VllmPrefillWorker']);

    expect(s.Frontend).toEqual({
      componentType: 'frontend',
      dynamoNamespace: 'llama-70b-pd',
      replicas: 2,
      envFromSecret: 'hf-token',
      resources: { requests: { cpu: '4', memory: '8Gi' } },
      extraPodSpec: { mainContainer: { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1', env: [{ name: 'DYN_ROUTER_MODE', value: 'kv' }] } },
    });
    expect(s.VllmPrefillWorker).toEqual({
      componentType: 'worker',
      subComponentType: 'prefill',
      dynamoNamespace: 'llama-70b-pd',
      replicas: 2,
      envFromSecret: 'hf-token',
      resources: { limits: { gpu: '4', memory: '128Gi' } },
      extraPodSpec: {
        mainContainer: {
          image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1',
          command: ['/bin/sh', '-c'],
          args: ['python3 -m dynamo.vllm --model meta-llama/Llama-3.1-70B-Instruct --is-prefill-worker'],
        },
      },
    });
    expect(s.VllmDecodeWorker).toEqual({
      componentType: 'worker',
      subComponentType: 'decode',
      dynamoNamespace: 'llama-70b-pd',
      replicas: 4,
      envFromSecret: 'hf-token',
      resources: { limits: { gpu: '2', memory: '64Gi' } },
      extraPodSpec: {
        mainContainer: {
          image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1',
          command: ['/bin/sh', '-c'],
          args: ['python3 -m dynamo.vllm --model meta-llama/Llama-3.1-70B-Instruct'],
        },
      },
    });
  });

  it('matches the golden file', async () => {
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/example-3-llama-70b-pd.yaml');
  });
});

describe('Dynamo render: variants', () => {
  it('SGLang: its runtime image, --model-path and --context-length', async () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), engine: { type: 'sglang', contextLength: 4096, trustRemoteCode: true } };
    const result = render(modelDeployment('sg', spec));
    const s = (result.objects[0] as Json).spec;
    expect(s.backendFramework).toBe('sglang');
    expect(s.services.SglangWorker.extraPodSpec.mainContainer).toMatchObject({
      image: 'nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.7.1',
      args: ['python3 -m dynamo.sglang --model-path meta-llama/Llama-3.1-8B-Instruct --context-length 4096 --trust-remote-code'],
    });
    expect(s.services.Frontend.extraPodSpec.mainContainer.image).toBe('nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.7.1');
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/sglang-aggregated.yaml');
  });

  it('TensorRT-LLM: context length and trust-remote-code are ignored with warnings (seed §15)', async () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), engine: { type: 'trtllm', contextLength: 8192, trustRemoteCode: true } };
    const result = render(modelDeployment('trt', spec));
    const worker = (result.objects[0] as Json).spec.services.TrtllmWorker;
    expect(worker.extraPodSpec.mainContainer.image).toBe('nvcr.io/nvidia/ai-dynamo/trtllm-runtime:0.7.1');
    expect(worker.extraPodSpec.mainContainer.args).toEqual(['python3 -m dynamo.trtllm --model-path meta-llama/Llama-3.1-8B-Instruct']);
    expect(result.warnings).toEqual([
      'engine.contextLength is ignored for TensorRT-LLM (context length is fixed when the engine is built)',
      'engine.trustRemoteCode does not apply to TensorRT-LLM and is ignored',
    ]);
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/trtllm-aggregated.yaml');
  });

  it('disaggregated SGLang names the worker role explicitly', () => {
    const spec: ModelDeploymentSpec = { ...example3().spec, engine: { type: 'sglang' } };
    const s = services(spec);
    expect(s.SglangPrefillWorker.extraPodSpec.mainContainer.args).toEqual([
      'python3 -m dynamo.sglang --model-path meta-llama/Llama-3.1-70B-Instruct --disaggregation-mode prefill',
    ]);
    expect(s.SglangDecodeWorker.extraPodSpec.mainContainer.args).toEqual([
      'python3 -m dynamo.sglang --model-path meta-llama/Llama-3.1-70B-Instruct --disaggregation-mode decode',
    ]);
  });

  it('everything set: image, env, pod metadata, scheduling, served name and sorted engine args on every service', async () => {
    const spec = { ...withEverything(gpuVllmSpec()), image: 'registry.example.com/vllm-runtime:custom' };
    const result = render(modelDeployment('full', spec));
    const s = (result.objects[0] as Json).spec.services;
    for (const service of [s.Frontend, s.VllmWorker]) {
      expect(service.extraPodSpec.mainContainer.image).toBe('registry.example.com/vllm-runtime:custom');
      expect(service.extraPodSpec.mainContainer.env.filter((e: Json) => e.name !== 'DYN_ROUTER_MODE')).toEqual([
        { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
        { name: 'HF_HOME', value: '/cache' },
      ]);
      expect(service.extraPodSpec.nodeSelector).toEqual({ 'kubernetes.io/arch': 'amd64', pool: 'gpu' });
      expect(service.extraPodSpec.tolerations).toEqual([{ effect: 'NoSchedule', key: 'nvidia.com/gpu', operator: 'Exists' }]);
      expect(service.labels).toEqual({ app: 'chat', team: 'ml' });
      expect(service.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
    }
    expect(s.VllmWorker.extraPodSpec.mainContainer.args).toEqual([
      'python3 -m dynamo.vllm --model meta-llama/Llama-3.1-8B-Instruct --served-model-name chat --max-model-len 8192 --trust-remote-code --enforce-eager --gpu-memory-utilization 0.9 --quantization awq',
    ]);
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/vllm-everything.yaml');
  });

  it('quotes user values in the shell command so they stay one word', () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), engine: { type: 'vllm', args: { 'chat-template': "x'; rm -rf / #" } } };
    expect(services(spec).VllmWorker.extraPodSpec.mainContainer.args).toEqual([
      `python3 -m dynamo.vllm --model meta-llama/Llama-3.1-8B-Instruct --chat-template 'x'\\''; rm -rf / #'`,
    ]);
  });

  it('engine.args cannot replace the model or the worker role, and wins over derived flags with a warning', () => {
    const spec: ModelDeploymentSpec = {
      ...gpuVllmSpec(),
      engine: { type: 'vllm', contextLength: 8192, args: { model: 'other', 'max-model-len': '4096', 'bad key': 'x' } },
    };
    const result = render(modelDeployment('m', spec));
    expect((result.objects[0] as Json).spec.services.VllmWorker.extraPodSpec.mainContainer.args).toEqual([
      'python3 -m dynamo.vllm --model meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096',
    ]);
    expect(result.warnings).toEqual([
      "engine.args key 'bad key' is not a valid flag name and is ignored",
      'engine.args.model is set by the provider and is ignored',
      'engine.args.max-model-len takes precedence over the value derived from engine.contextLength',
    ]);
  });

  it('routerMode none and frontend replicas 0 pass through; invalid override values fall back to defaults', () => {
    const mode = (frontend: Json) => frontend.extraPodSpec.mainContainer.env.find((e: Json) => e.name === 'DYN_ROUTER_MODE')?.value;
    const none = services({ ...gpuVllmSpec(), provider: { overrides: { routerMode: 'none', frontend: { replicas: 0 } } } }).Frontend;
    expect(mode(none)).toBe('none');
    expect(none.replicas).toBe(0);
    const fallback = services({ ...gpuVllmSpec(), provider: { overrides: { routerMode: 'fast', frontend: { replicas: '2', resources: { cpu: 'four' } } } } }).Frontend;
    expect(mode(fallback)).toBe('round-robin');
    expect(fallback).toMatchObject({ replicas: 1, resources: { requests: { cpu: '2', memory: '4Gi' } } });
  });

  it("the workers get no router mode; a user's own DYN_ROUTER_MODE in spec.env wins, with a warning", () => {
    const s = services({ ...gpuVllmSpec(), provider: { overrides: { routerMode: 'kv' } } });
    expect(s.VllmWorker.extraPodSpec.mainContainer).not.toHaveProperty('env');
    const result = render(modelDeployment('m', { ...gpuVllmSpec(), env: [{ name: 'DYN_ROUTER_MODE', value: 'random' }], provider: { overrides: { routerMode: 'kv' } } }));
    expect((result.objects[0] as Json).spec.services.Frontend.extraPodSpec.mainContainer.env).toEqual([{ name: 'DYN_ROUTER_MODE', value: 'random' }]);
    expect(result.warnings).toEqual(["env DYN_ROUTER_MODE is set; it takes the place of the router mode 'kv'"]);
  });

  it('frontend resources may be numbers, as Kubernetes quantities may', () => {
    expect(services({ ...gpuVllmSpec(), provider: { overrides: { frontend: { resources: { cpu: 4, memory: 17179869184 } } } } }).Frontend).toMatchObject({
      resources: { requests: { cpu: '4', memory: '17179869184' } },
    });
  });

  it('warns when asked for non-NVIDIA GPUs', () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), resources: { gpu: { count: 1, type: 'amd.com/gpu' } } };
    expect(render(modelDeployment('amd', spec)).warnings).toEqual([
      'Dynamo schedules NVIDIA GPUs; GPU type amd.com/gpu is treated as nvidia.com/gpu',
    ]);
  });

  it('worker CPU from spec.resources.cpu goes into limits', () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), resources: { gpu: { count: 2 }, memory: '32Gi', cpu: '8' } };
    expect(services(spec).VllmWorker.resources).toEqual({ limits: { cpu: '8', gpu: '2', memory: '32Gi' } });
  });
});
