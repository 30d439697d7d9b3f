// The generated CRDs on the real API server: the server itself enforces the seed rules it can express
// (x-kubernetes-validations), fills the defaults, and serves the scale subresource and printer columns.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import { ValidationMessage } from '../../api/validation-messages.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { kubeConfig, stackInfo, testKube, type TestKube } from '../support/env.ts';

describe('ModelDeployment CRD on the API server', () => {
  let kube: TestKube;
  const objects = new CustomObjects(kubeConfig());
  const ref = (name: string) => ({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: kube.namespace, name });
  const md = (name: string, spec: object): AnyObject => ({ apiVersion: `${GROUP}/${VERSION}`, kind: 'ModelDeployment', metadata: { name, namespace: kube.namespace }, spec });
  const rejection = async (name: string, spec: object) => {
    try {
      await objects.apply(ref(name), md(name, spec), 'crd-test');
    } catch (err) {
      return classifyKubeError(err);
    }
    throw new Error(`${name} was accepted`);
  };
  const kubectl = (...args: string[]) => execFileSync('kubectl', ['--kubeconfig', stackInfo().kubeconfigPath, '-n', kube.namespace, ...args], { encoding: 'utf8' });

  beforeAll(async () => {
    kube = await testKube('crd');
  });
  afterAll(async () => kube?.cleanup());

  it('rejects disaggregated specs that break the seed rules, with the seed messages', async () => {
    const engine = { type: 'vllm' };
    const model = { id: 'meta-llama/Llama-3.1-70B-Instruct' };
    const both = await rejection('both', {
      model,
      engine,
      serving: { mode: 'disaggregated' },
      resources: { gpu: { count: 1 } },
      scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 1 } } },
    });
    expect(both.type).toBe('Invalid');
    expect(both.detail).toContain(ValidationMessage.disaggregatedWithResourcesGpu);

    const missing = await rejection('missing', { model, engine, serving: { mode: 'disaggregated' } });
    expect(missing.detail).toContain(ValidationMessage.disaggregatedRequiresPrefillAndDecode);

    const noGpu = await rejection('nogpu', { model, engine, serving: { mode: 'disaggregated' }, scaling: { prefill: { replicas: 1 }, decode: { replicas: 1, gpu: { count: 1 } } } });
    expect(noGpu.detail).toContain(ValidationMessage.disaggregatedRequiresPrefillGpu);
  });

  it('fills the defaults and serves the scale subresource and printer columns', async () => {
    await objects.apply(ref('ok'), md('ok', { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'llamacpp' }, image: 'example.com/llama:1' }), 'crd-test');
    const stored = (await objects.get(ref('ok'))) as { spec: { model: { source?: string }; serving?: { mode?: string }; scaling?: { replicas?: number } } };
    expect(stored.spec.model.source).toBe('huggingface');
    expect(stored.spec.serving?.mode).toBe('aggregated');
    expect(stored.spec.scaling?.replicas).toBe(1);

    kubectl('scale', 'md/ok', '--replicas=3');
    const scaled = (await objects.get(ref('ok'))) as { spec: { scaling?: { replicas?: number } } };
    expect(scaled.spec.scaling?.replicas).toBe(3);

    const header = kubectl('get', 'md').split('\n')[0]!.split(/\s+/);
    expect(header).toEqual(expect.arrayContaining(['NAME', 'PROVIDER', 'ENGINE', 'PHASE', 'READY', 'AGE']));
  });
});
