// The generated CRDs on the real API server: the server itself enforces the seed rules it can express
// (x-kubernetes-validations), fills the defaults, and serves the scale subresource and printer columns.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import { FLAME_API_VERSION, FLAME_CLUSTER_KIND, FLAME_CLUSTER_PLURAL, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import { seedSpec } from '../../api/flame/testing.ts';
import { validateFlameCluster } from '../../api/flame/validate.ts';
import { validate } from '../../api/validate.ts';
import { ValidationMessage } from '../../api/validation-messages.ts';
import { OBJECT_NAME_PATTERN, PATTERN_DESCRIPTIONS } from '../../api/crd/model-deployment-schema.ts';
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

  it('refuses a number beyond 32 bits at its field, as kar validate does (kubectl apply, as a user sees it)', async () => {
    const spec = { model: { id: 'org/m' }, engine: { type: 'vllm', contextLength: 3_000_000_000 }, resources: { gpu: { count: 1 } } };
    let refusal = '';
    try {
      execFileSync('kubectl', ['--kubeconfig', stackInfo().kubeconfigPath, 'apply', '--dry-run=server', '-f', '-'], { input: JSON.stringify(md('big', spec)), encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      refusal = String((err as { stderr?: string }).stderr);
    }
    expect(refusal).toContain('spec.engine.contextLength: Invalid value: 3000000000: spec.engine.contextLength in body should be less than or equal to 2147483647');
    expect(validate(spec).errors).toEqual([{ field: 'spec.engine.contextLength', message: 'spec.engine.contextLength must be at most 2147483647, got 3000000000' }]);
  });

  it('rejects what a cluster would break on later, naming the field and what is allowed (docs/validation.md)', async () => {
    const gpu = { model: { id: 'Qwen/Qwen3-8B' }, engine: { type: 'vllm' } };
    const custom = await rejection('custom', { model: { source: 'custom' }, engine: { type: 'llamacpp' } });
    expect(custom.type).toBe('Invalid');
    expect(custom.detail).toContain(`spec.image: Required value: ${ValidationMessage.customSourceRequiresImage}`);

    const tooMany = await rejection('toomany', { ...gpu, resources: { gpu: { count: 1_000_000_000 } } });
    expect(tooMany.detail).toContain('spec.resources.gpu.count: Invalid value: 1000000000: spec.resources.gpu.count in body should be less than or equal to 128');

    const secret = await rejection('secret', { ...gpu, resources: { gpu: { count: 1 } }, secrets: { huggingFaceToken: 'HF_TOKEN' } });
    // In words, not as the raw pattern (the CRD says it with a CEL rule; api/crd/friendly-patterns.ts).
    expect(secret.detail).toContain(`spec.secrets.huggingFaceToken: Invalid value: "HF_TOKEN": must be ${PATTERN_DESCRIPTIONS[OBJECT_NAME_PATTERN]}`);
    expect(secret.detail).not.toContain('should match');

    const envRef = await rejection('envref', {
      ...gpu,
      resources: { gpu: { count: 1 } },
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'Not_A_Name', key: 'k' } } }],
    });
    // In a list the pattern stays (a CEL rule there would be costed per possible element): the raw form.
    expect(envRef.detail).toContain('spec.env[0].valueFrom.secretKeyRef.name: Invalid value: "Not_A_Name"');
  });

  it('refuses kubectl scale of a disaggregated deployment with what to set instead; its workers scale by patch', async () => {
    await objects.apply(
      ref('pd'),
      md('pd', {
        model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
        engine: { type: 'vllm' },
        serving: { mode: 'disaggregated' },
        scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 1 } } },
      }),
      'crd-test',
    );
    let failure = '';
    try {
      kubectl('scale', 'md/pd', '--replicas=3');
    } catch (err) {
      failure = String((err as { stderr?: string }).stderr);
    }
    expect(failure).toContain(`spec.scaling.replicas: Forbidden: ${ValidationMessage.disaggregatedReplicasFixed}`);

    kubectl('patch', 'md/pd', '--type=merge', '-p', JSON.stringify({ spec: { scaling: { decode: { replicas: 4 } } } }));
    const stored = (await objects.get(ref('pd'))) as { spec: { scaling: { replicas?: number; decode: { replicas: number } } } };
    expect(stored.spec.scaling).toMatchObject({ replicas: 1, decode: { replicas: 4 } });
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

describe('FlameCluster CRD on the API server', () => {
  let kube: TestKube;
  const objects = new CustomObjects(kubeConfig());
  const ref = (name: string) => ({ group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL, namespace: kube.namespace, name });
  const cluster = (name: string, executorManager: object): AnyObject => {
    const spec = seedSpec();
    return { apiVersion: FLAME_API_VERSION, kind: FLAME_CLUSTER_KIND, metadata: { name, namespace: kube.namespace }, spec: { ...spec, executorManager: { ...spec.executorManager, ...executorManager } } };
  };

  beforeAll(async () => {
    kube = await testKube('crd-flame');
  });
  afterAll(async () => kube?.cleanup());

  it('refuses integers above 2^53 - 1, which the API server could store but validation would refuse', async () => {
    const refused = async (name: string, executorManager: object) => {
      const object = cluster(name, executorManager);
      expect(validateFlameCluster(object).valid).toBe(false);
      try {
        await objects.apply(ref(name), object, 'crd-test');
      } catch (err) {
        return classifyKubeError(err);
      }
      throw new Error(`${name} was accepted`);
    };
    const replicas = await refused('replicas', { replicas: 2 ** 53 });
    expect(replicas.type).toBe('Invalid');
    expect(replicas.detail).toContain('spec.executorManager.replicas in body should be less than or equal to 9007199254740991');
    const maxExecutors = await refused('max-executors', { maxExecutors: 2 ** 62 });
    expect(maxExecutors.detail).toContain('spec.executorManager.maxExecutors in body should be less than or equal to 9007199254740991');

    const largest = cluster('largest', { replicas: Number.MAX_SAFE_INTEGER, maxExecutors: Number.MAX_SAFE_INTEGER });
    expect(validateFlameCluster(largest).valid).toBe(true);
    await objects.apply(ref('largest'), largest, 'crd-test');
    const stored = (await objects.get(ref('largest'))) as { spec: { executorManager: { replicas: number } } };
    expect(stored.spec.executorManager.replicas).toBe(Number.MAX_SAFE_INTEGER);
  });
});
