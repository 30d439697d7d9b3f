import { describe, expect, it } from 'vitest';
import { UnsupportedApiVersionError } from '../shared/api-version.ts';
import { deploymentGoldenInputs } from '../golden-inputs.ts';
import { goldenText, modelDeployment } from '../testing/fixtures.ts';
import type { Json } from '../testing/fixtures.ts';
import { deploymentProvider } from './index.ts';

const context = { apiVersion: 'apps/v1' };
const render = (md: Parameters<typeof deploymentProvider.render>[0]) => deploymentProvider.render(md, context);
const input = (name: string) => deploymentGoldenInputs().find((g) => g.name === name)!.md;
const kinds = (objects: readonly Json[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`);
const container = (object: Json) => object.spec.template.spec.containers[0];

describe('deployment render: goldens', () => {
  for (const g of deploymentGoldenInputs()) {
    it(`${g.name} matches its golden file`, async () => {
      await expect(goldenText(render(g.md))).toMatchFileSnapshot(`./__golden__/${g.name}.yaml`);
    });
  }

  it('renders byte-identical output twice', () => {
    for (const g of deploymentGoldenInputs()) expect(JSON.stringify(render(g.md))).toBe(JSON.stringify(render(g.md)));
  });
});

describe('deployment render: vLLM aggregated', () => {
  const { objects, warnings } = render(input('vllm-aggregated'));
  const [deployment, service] = objects as Json[];

  it('one Deployment (the provider resource, first) and one Service, both named after the ModelDeployment', () => {
    expect(kinds(objects)).toEqual(['Deployment/llama-8b', 'Service/llama-8b']);
    expect(warnings).toEqual([]);
    expect(deployment.apiVersion).toBe('apps/v1');
    expect(deployment.metadata.ownerReferences[0]).toMatchObject({ kind: 'ModelDeployment', name: 'llama-8b', uid: 'uid-llama-8b', controller: true });
  });

  it('runs `vllm serve <model>` on 0.0.0.0:8000 with the §15 flags, GPUs as limits and the HF token by reference', () => {
    const c = container(deployment);
    expect(c.command).toEqual(['vllm', 'serve']);
    expect(c.args).toEqual(['meta-llama/Llama-3.1-8B-Instruct', '--host', '0.0.0.0', '--port', '8000', '--max-model-len', '8192']);
    expect(c.resources).toEqual({ requests: { memory: '32Gi' }, limits: { memory: '32Gi', 'nvidia.com/gpu': '1' } });
    expect(c.envFrom).toEqual([{ secretRef: { name: 'hf-token' } }]);
    expect(c.image).toBe('vllm/vllm-openai:v0.10.1.1');
  });

  it('probes /health: a startup probe long enough for a model load, then readiness and liveness', () => {
    const c = container(deployment);
    expect(c.startupProbe).toEqual({ httpGet: { path: '/health', port: 'http' }, periodSeconds: 10, failureThreshold: 180 });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(deployment.spec.progressDeadlineSeconds).toBeGreaterThan(1800);
  });

  it('mounts an in-memory /dev/shm', () => {
    expect(deployment.spec.template.spec.volumes).toEqual([{ name: 'dshm', emptyDir: { medium: 'Memory' } }]);
    expect(container(deployment).volumeMounts).toEqual([{ name: 'dshm', mountPath: '/dev/shm' }]);
  });

  it('pods carry the ModelDeployment label; the Deployment and Service select them by it and by role', () => {
    const selector = { 'kubeairunway.ai/managed-by': 'kubeairunway', 'kubeairunway.ai/model-deployment': 'llama-8b', 'kubeairunway.ai/serving-role': 'server' };
    expect(deployment.spec.selector.matchLabels).toEqual(selector);
    expect(deployment.spec.template.metadata.labels).toMatchObject(selector);
    expect(service.spec).toEqual({ type: 'ClusterIP', selector, ports: [{ name: 'http', port: 8000, targetPort: 'http', protocol: 'TCP' }] });
  });
});

describe('deployment render: the other engines and modes', () => {
  it('vLLM disaggregated: a Deployment and Service per role, decode first (it serves the endpoint), each sized by its own scaling entry', () => {
    const { objects } = render(input('vllm-disaggregated'));
    expect(kinds(objects)).toEqual(['Deployment/llama-70b-pd-decode', 'Deployment/llama-70b-pd-prefill', 'Service/llama-70b-pd-decode', 'Service/llama-70b-pd-prefill']);
    const [decode, prefill] = objects as Json[];
    expect([decode.spec.replicas, prefill.spec.replicas]).toEqual([4, 2]);
    expect(container(decode).resources.limits).toEqual({ memory: '64Gi', 'nvidia.com/gpu': '2' });
    expect(container(prefill).resources.limits).toEqual({ memory: '128Gi', 'nvidia.com/gpu': '4' });
    for (const d of [decode, prefill]) {
      expect(container(d).args).toEqual(expect.arrayContaining(['--kv-transfer-config', '{"kv_connector":"NixlConnector","kv_role":"kv_both"}']));
      expect(container(d).env).toEqual([{ name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }]);
    }
    expect(decode.spec.selector.matchLabels['kubeairunway.ai/serving-role']).toBe('decode');
  });

  it('SGLang: sglang.launch_server --model-path, --context-length, --trust-remote-code, /dev/shm', () => {
    const c = container(render(input('sglang-aggregated')).objects[0]);
    expect(c.command).toEqual(['python3', '-m', 'sglang.launch_server']);
    expect(c.args).toEqual(['--model-path', 'meta-llama/Llama-3.1-8B-Instruct', '--host', '0.0.0.0', '--port', '8000', '--context-length', '4096', '--trust-remote-code']);
    expect(c.volumeMounts).toEqual([{ name: 'dshm', mountPath: '/dev/shm' }]);
  });

  it('llama.cpp from Hugging Face: the image entrypoint (llama-server) with --hf-repo, --alias and --ctx-size, no /dev/shm', () => {
    const { objects } = render(input('llamacpp-cpu-huggingface'));
    const c = container(objects[0]);
    expect(c.image).toBe('ghcr.io/ggml-org/llama.cpp:server');
    expect(c.command).toBeUndefined();
    expect(c.args).toEqual(['--hf-repo', 'google/gemma-3-1b-it-qat-q8_0-gguf', '--host', '0.0.0.0', '--port', '8080', '--alias', 'gemma', '--ctx-size', '4096']);
    expect(c.resources).toEqual({ requests: { cpu: '8', memory: '16Gi' }, limits: { memory: '16Gi' } });
    expect(c.volumeMounts).toBeUndefined();
    expect((objects[1] as Json).spec.ports[0].port).toBe(8080);
  });

  it('llama.cpp from a local path (file:// too), and a repository file named in the id', () => {
    expect(container(render(input('llamacpp-local-path')).objects[0]).args.slice(0, 2)).toEqual(['--model', '/models/tiny.gguf']);
    const md = (id: string) => modelDeployment('t', { model: { id }, engine: { type: 'llamacpp' }, provider: { name: 'deployment' } });
    expect(container(render(md('file:///data/m.gguf')).objects[0]).args.slice(0, 2)).toEqual(['--model', '/data/m.gguf']);
    expect(container(render(md('org/repo/sub/m-Q4.gguf')).objects[0]).args.slice(0, 4)).toEqual(['--hf-repo', 'org/repo', '--hf-file', 'sub/m-Q4.gguf']);
  });

  it('spec.image and overrides.command replace the defaults', () => {
    const md = modelDeployment('t', { model: { id: '/m.gguf', source: 'custom' }, engine: { type: 'llamacpp' }, image: 'local/llama:1', provider: { name: 'deployment', overrides: { command: ['/usr/bin/llama-server'] } } });
    const c = container(render(md).objects[0]);
    expect(c.image).toBe('local/llama:1');
    expect(c.command).toEqual(['/usr/bin/llama-server']);
  });

  it('engine.args may not replace the flags the provider sets', () => {
    const md = modelDeployment('t', { model: { id: '/m.gguf', source: 'custom' }, engine: { type: 'llamacpp', args: { port: '9', threads: '4' } }, provider: { name: 'deployment' } });
    const { objects, warnings } = render(md);
    expect(container(objects[0]).args).toEqual(['--model', '/m.gguf', '--host', '0.0.0.0', '--port', '8080', '--threads', '4']);
    expect(warnings).toEqual(['engine.args.port is set by the provider and is ignored']);
  });
});

describe('deployment render: names', () => {
  it('a name that is no DNS-1035 label of at most 55 characters is hashed, so every Service name fits 63', () => {
    const long = modelDeployment('a'.repeat(70), { ...deploymentGoldenInputs()[2]!.md.spec });
    const { objects, warnings } = render(long);
    for (const o of objects as Json[]) expect(o.metadata.name.length).toBeLessThanOrEqual(63);
    expect((objects[0] as Json).metadata.name).toMatch(/^a+-[0-9a-f]{8}-decode$/);
    expect(warnings[0]).toContain('is not a DNS-1035 label of at most 55 characters');
    const dotted = render(modelDeployment('x.y', input('vllm-aggregated').spec!)).objects[0] as Json;
    expect(dotted.metadata.name).toMatch(/^x-y-[0-9a-f]{8}$/);
  });

  it('refuses an API version it does not render', () => {
    expect(() => deploymentProvider.render(input('vllm-aggregated'), { apiVersion: 'apps/v1beta2' })).toThrow(UnsupportedApiVersionError);
  });
});
