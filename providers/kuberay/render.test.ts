import { describe, expect, it } from 'vitest';
import { disaggregatedSpec, gpuVllmSpec } from '../../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { goldenText, modelDeployment, withEverything } from '../testing/fixtures.ts';
import type { Json } from '../testing/fixtures.ts';
import { kuberayProvider } from './index.ts';

const context = { apiVersion: 'ray.io/v1' };
const render = (spec: ModelDeploymentSpec, name = 'llama-ray') => kuberayProvider.render(modelDeployment(name, spec), context);
const rayService = (spec: ModelDeploymentSpec): Record<string, Json> => render(spec).objects[0] as Record<string, Json>;
const serveApp = (spec: ModelDeploymentSpec): Record<string, Json> => JSON.parse(rayService(spec).spec.serveConfigV2).applications[0];

const kuberaySpec = (): ModelDeploymentSpec => ({ ...gpuVllmSpec(), provider: { name: 'kuberay' } });

describe('KubeRay render: aggregated vLLM', () => {
  const ray = rayService(kuberaySpec());
  const head = ray.spec.rayClusterConfig.headGroupSpec;
  const workers = ray.spec.rayClusterConfig.workerGroupSpecs;

  it('is a RayService owned by the ModelDeployment in its namespace', () => {
    expect(ray.apiVersion).toBe('ray.io/v1');
    expect(ray.kind).toBe('RayService');
    expect(ray.metadata).toMatchObject({
      name: 'llama-ray',
      namespace: 'default',
      ownerReferences: [{ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'llama-ray', controller: true, blockOwnerDeletion: true }],
      labels: { 'kubeairunway.ai/managed-by': 'kubeairunway' },
    });
  });

  it('head gets the §4.15 defaults: cpu "4", memory "16Gi", rayStartParams {}', () => {
    expect(head.rayStartParams).toEqual({});
    expect(head.template.spec.containers[0].resources.requests).toEqual({ cpu: '4', memory: '16Gi' });
  });

  it('workers get the §4.15 default memory "32Gi", the GPUs, and one pod per replica', () => {
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatchObject({ groupName: 'gpu-workers', replicas: 1, minReplicas: 1, maxReplicas: 1 });
    // gpuVllmSpec sets resources.memory 32Gi; drop it to see the default.
    const spec = kuberaySpec();
    spec.resources = { gpu: { count: 1 } };
    expect(rayService(spec).spec.rayClusterConfig.workerGroupSpecs[0].template.spec.containers[0].resources).toEqual({
      requests: { memory: '32Gi' },
      limits: { memory: '32Gi', 'nvidia.com/gpu': '1' },
    });
  });

  it('uses the seed default image rayproject/ray-ml:<version>', () => {
    expect(head.template.spec.containers[0].image).toMatch(/^rayproject\/ray-ml:/);
    expect(workers[0].template.spec.containers[0].image).toMatch(/^rayproject\/ray-ml:/);
  });

  it('serves the model with Ray Serve LLM, context length as engine kwarg', () => {
    expect(serveApp(kuberaySpec())).toEqual({
      name: 'llm',
      route_prefix: '/',
      import_path: 'ray.serve.llm:build_openai_app',
      args: {
        llm_configs: [
          {
            model_loading_config: { model_id: 'meta-llama/Llama-3.1-8B-Instruct', model_source: 'meta-llama/Llama-3.1-8B-Instruct' },
            engine_kwargs: { max_model_len: 8192 },
            deployment_config: { autoscaling_config: { min_replicas: 1, max_replicas: 1 } },
          },
        ],
      },
    });
  });

  it('passes the HuggingFace token by secret name only', () => {
    expect(head.template.spec.containers[0].envFrom).toEqual([{ secretRef: { name: 'hf-token' } }]);
    expect(workers[0].template.spec.containers[0].envFrom).toEqual([{ secretRef: { name: 'hf-token' } }]);
  });

  it('matches the golden file', async () => {
    await expect(goldenText(render(kuberaySpec()))).toMatchFileSnapshot('./__golden__/vllm-aggregated.yaml');
  });
});

describe('KubeRay render: overrides and variants', () => {
  it('head.* overrides replace the defaults (seed §4.15 example)', () => {
    const spec: ModelDeploymentSpec = {
      ...kuberaySpec(),
      provider: {
        name: 'kuberay',
        overrides: { head: { resources: { cpu: '4', memory: '8Gi' }, rayStartParams: { 'dashboard-host': '0.0.0.0', 'num-cpus': '0' } } },
      },
    };
    const head = rayService(spec).spec.rayClusterConfig.headGroupSpec;
    expect(head.rayStartParams).toEqual({ 'dashboard-host': '0.0.0.0', 'num-cpus': '0' });
    expect(head.template.spec.containers[0].resources).toEqual({ requests: { cpu: '4', memory: '8Gi' }, limits: { cpu: '4', memory: '8Gi' } });
  });

  it('a partial head override keeps the other defaults', () => {
    const spec: ModelDeploymentSpec = { ...kuberaySpec(), provider: { name: 'kuberay', overrides: { head: { resources: { memory: '8Gi' } } } } };
    expect(rayService(spec).spec.rayClusterConfig.headGroupSpec.template.spec.containers[0].resources.requests).toEqual({ cpu: '4', memory: '8Gi' });
  });

  it('several GPUs per replica become tensor parallelism unless engine.args says otherwise', () => {
    const spec = kuberaySpec();
    spec.resources = { gpu: { count: 4 } };
    expect(serveApp(spec).args.llm_configs[0].engine_kwargs).toEqual({ max_model_len: 8192, tensor_parallel_size: 4 });
    spec.engine = { type: 'vllm', args: { 'tensor-parallel-size': '2' } };
    expect(serveApp(spec).args.llm_configs[0].engine_kwargs).toEqual({ tensor_parallel_size: 2 });
  });

  it('everything set: env, pod metadata, scheduling, served name and typed engine kwargs', async () => {
    const spec = { ...withEverything(kuberaySpec()), image: 'rayproject/ray-llm:2.46.0-py311-cu124' };
    const result = render(spec, 'full');
    const ray = result.objects[0] as Json;
    for (const template of [ray.spec.rayClusterConfig.headGroupSpec.template, ray.spec.rayClusterConfig.workerGroupSpecs[0].template]) {
      expect(template.metadata).toEqual({ labels: { app: 'chat', team: 'ml' }, annotations: { 'prometheus.io/scrape': 'true' } });
      expect(template.spec.nodeSelector).toEqual({ 'kubernetes.io/arch': 'amd64', pool: 'gpu' });
      expect(template.spec.tolerations).toEqual([{ effect: 'NoSchedule', key: 'nvidia.com/gpu', operator: 'Exists' }]);
      expect(template.spec.containers[0].image).toBe('rayproject/ray-llm:2.46.0-py311-cu124');
      expect(template.spec.containers[0].env).toEqual([
        { name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG' },
        { name: 'HF_HOME', value: '/cache' },
      ]);
    }
    const config = JSON.parse(ray.spec.serveConfigV2).applications[0].args.llm_configs[0];
    expect(config.model_loading_config).toEqual({ model_id: 'chat', model_source: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(config.engine_kwargs).toEqual({
      enforce_eager: true,
      gpu_memory_utilization: 0.9,
      max_model_len: 8192,
      quantization: 'awq',
      trust_remote_code: true,
    });
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/vllm-everything.yaml');
  });

  it('disaggregated: prefill and decode worker groups and the prefill/decode Serve app', async () => {
    const spec: ModelDeploymentSpec = { ...disaggregatedSpec(), provider: { name: 'kuberay' } };
    const result = render(spec, 'llama-70b-pd');
    const ray = result.objects[0] as Json;
    const groups = ray.spec.rayClusterConfig.workerGroupSpecs;
    expect(groups.map((g: Json) => [g.groupName, g.replicas, g.template.spec.containers[0].resources.limits])).toEqual([
      ['prefill-workers', 2, { memory: '128Gi', 'nvidia.com/gpu': '4' }],
      ['decode-workers', 4, { memory: '64Gi', 'nvidia.com/gpu': '2' }],
    ]);
    const app = JSON.parse(ray.spec.serveConfigV2).applications[0];
    expect(app.import_path).toBe('ray.serve.llm:build_pd_openai_app');
    expect(app.args.prefill_config.engine_kwargs).toEqual({
      kv_transfer_config: { kv_connector: 'NixlConnector', kv_role: 'kv_both' },
      tensor_parallel_size: 4,
    });
    expect(app.args.decode_config.deployment_config).toEqual({ autoscaling_config: { min_replicas: 4, max_replicas: 4 } });
    await expect(goldenText(result)).toMatchFileSnapshot('./__golden__/vllm-disaggregated.yaml');
  });
});
