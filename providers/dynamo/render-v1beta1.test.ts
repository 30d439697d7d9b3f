import { describe, expect, it } from 'vitest';
import { gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { example1, example3, goldenText, modelDeployment, withEverything } from '../testing/fixtures.ts';
import type { Json } from '../testing/fixtures.ts';
import { dynamoProvider } from './index.ts';

// nvidia.com/v1beta1: the same inputs as render.test.ts's goldens, in the list-of-components shape.
const render = (md: Parameters<typeof dynamoProvider.render>[0]) => dynamoProvider.render(md, { apiVersion: 'nvidia.com/v1beta1' });
const components = (spec: ModelDeploymentSpec, name = 'm'): Json[] => (render(modelDeployment(name, spec)).objects[0] as Json).spec.components;
const main = (component: Json) => component.podTemplate.spec.containers.find((c: Json) => c.name === 'main');

describe('Dynamo render, nvidia.com/v1beta1', () => {
  it('seed Example 1: a frontend and a worker component, each with a pod template whose container is `main`', async () => {
    const result = render(example1());
    const graph = result.objects[0] as Json;
    expect(graph.apiVersion).toBe('nvidia.com/v1beta1');
    expect(graph.spec).not.toHaveProperty('services');
    expect(graph.spec.backendFramework).toBe('vllm');
    expect(graph.spec.components.map((c: Json) => [c.name, c.type, c.replicas])).toEqual([
      ['Frontend', 'frontend', 1],
      ['VllmWorker', 'worker', 1],
    ]);
    const [frontend, worker] = graph.spec.components;
    expect(main(frontend)).toEqual({
      name: 'main',
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1',
      env: [{ name: 'DYN_ROUTER_MODE', value: 'round-robin' }],
      envFrom: [{ secretRef: { name: 'hf-token' } }],
      resources: { requests: { cpu: '2', memory: '4Gi' } },
    });
    expect(main(worker)).toEqual({
      name: 'main',
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1',
      command: ['/bin/sh', '-c'],
      args: ['python3 -m dynamo.vllm --model meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192'],
      envFrom: [{ secretRef: { name: 'hf-token' } }],
      resources: { limits: { 'nvidia.com/gpu': '1', memory: '32Gi' } },
    });
    expect(result.warnings).toEqual([]);
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/v1beta1/example-1-llama-8b.yaml');
  });

  it('seed Example 3: prefill and decode are component types of their own; the router mode kv reaches the frontend', async () => {
    const result = render(example3());
    const list = (result.objects[0] as Json).spec.components;
    expect(list.map((c: Json) => [c.name, c.type, c.replicas])).toEqual([
      ['Frontend', 'frontend', 2],
      ['VllmPrefillWorker', 'prefill', 2],
      ['VllmDecodeWorker', 'decode', 4],
    ]);
    expect(main(list[0]).env).toEqual([{ name: 'DYN_ROUTER_MODE', value: 'kv' }]);
    expect(main(list[1]).resources).toEqual({ limits: { 'nvidia.com/gpu': '4', memory: '128Gi' } });
    expect(main(list[1]).args).toEqual(['python3 -m dynamo.vllm --model meta-llama/Llama-3.1-70B-Instruct --is-prefill-worker']);
    expect(main(list[2]).resources).toEqual({ limits: { 'nvidia.com/gpu': '2', memory: '64Gi' } });
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/v1beta1/example-3-llama-70b-pd.yaml');
  });

  it('SGLang and TensorRT-LLM: same commands and warnings as in v1alpha1', async () => {
    const sg = render(modelDeployment('sg', { ...gpuVllmSpec(), engine: { type: 'sglang', contextLength: 4096, trustRemoteCode: true } }));
    expect(main((sg.objects[0] as Json).spec.components[1]).args).toEqual([
      'python3 -m dynamo.sglang --model-path meta-llama/Llama-3.1-8B-Instruct --context-length 4096 --trust-remote-code',
    ]);
    await expect(goldenText(sg)).toMatchFileSnapshot('./__golden__/v1beta1/sglang-aggregated.yaml');
    const trt = render(modelDeployment('trt', { ...gpuVllmSpec(), engine: { type: 'trtllm', contextLength: 8192, trustRemoteCode: true } }));
    expect(trt.warnings).toHaveLength(2);
    await expect(goldenText(trt)).toMatchFileSnapshot('./__golden__/v1beta1/trtllm-aggregated.yaml');
  });

  it('everything set: pod labels and annotations in the template metadata, scheduling in the pod spec, env on main', async () => {
    const result = render(modelDeployment('full', { ...withEverything(gpuVllmSpec()), image: 'registry.example.com/vllm-runtime:custom' }));
    for (const component of (result.objects[0] as Json).spec.components) {
      expect(component.podTemplate.metadata).toEqual({ labels: { app: 'chat', team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } });
      expect(component.podTemplate.spec.nodeSelector).toEqual({ 'kubernetes.io/arch': 'amd64', pool: 'gpu' });
      expect(component.podTemplate.spec.tolerations).toEqual([{ effect: 'NoSchedule', key: 'nvidia.com/gpu', operator: 'Exists' }]);
      expect(main(component).image).toBe('registry.example.com/vllm-runtime:custom');
      expect(main(component).env.filter((e: Json) => e.name !== 'DYN_ROUTER_MODE')).toEqual([
        { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
        { name: 'HF_HOME', value: '/cache' },
      ]);
    }
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/v1beta1/vllm-everything.yaml');
  });

  it('no secret, no pod metadata, no scheduling: none of their fields; worker CPU goes into limits', () => {
    const [frontend, worker] = components({ ...gpuVllmSpec(), secrets: undefined, resources: { gpu: { count: 2 }, memory: '32Gi', cpu: '8' } });
    expect(frontend.podTemplate).not.toHaveProperty('metadata');
    expect(main(frontend)).not.toHaveProperty('envFrom');
    expect(Object.keys(worker.podTemplate.spec)).toEqual(['containers']);
    expect(main(worker).resources).toEqual({ limits: { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '2' } });
  });

  it('is a pure function of its input: the same bytes twice, and keys in order', () => {
    const a = JSON.stringify(render(example3()));
    expect(JSON.stringify(render(example3()))).toBe(a);
    const frontend = (render(example3()).objects[0] as Json).spec.components[0];
    expect(Object.keys(frontend)).toEqual([...Object.keys(frontend)].sort());
    expect(Object.keys(main(frontend))).toEqual([...Object.keys(main(frontend))].sort());
  });

  it('an unsupported version is refused', () => {
    expect(() => dynamoProvider.render(example1(), { apiVersion: 'nvidia.com/v2' })).toThrow(/nvidia.com\/v1beta1, nvidia.com\/v1alpha1/);
  });
});

describe('Dynamo render: env names repeated in spec.env', () => {
  it('keeps one entry per name (the last value, where the first stood), since the container env is keyed by name; warns', () => {
    const spec = { ...gpuVllmSpec(), env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }, { name: 'A', value: '3' }] };
    for (const apiVersion of ['nvidia.com/v1beta1', 'nvidia.com/v1alpha1']) {
      const result = dynamoProvider.render(modelDeployment('m', spec), { apiVersion });
      const text = JSON.stringify(result.objects[0]);
      expect(text).toContain('[{"name":"A","value":"3"},{"name":"B","value":"2"}]');
      expect(text).not.toContain('"value":"1"');
      expect(result.warnings).toEqual(['env A is set more than once; the last value is used']);
    }
  });
});
