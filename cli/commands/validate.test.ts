import { describe, expect, it } from 'vitest';
import { manifest, providerConfig, run } from '../testing/run.ts';

const EXAMPLES = ['examples/gpu-vllm-dynamo.yaml', 'examples/cpu-gguf-kaito.yaml', 'examples/disaggregated-dynamo.yaml', 'examples/cpu-llamacpp-minimal.yaml'];

describe('kubeairunway validate', () => {
  it.each(EXAMPLES)('%s is valid', async (file) => {
    const result = await run(['validate', '-f', file]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`^${file}: ModelDeployment default/[a-z0-9-]+ is valid\\n$`));
  });

  it('reports the seed messages and exits 1', async () => {
    const result = await run(['validate', '-f', 'bad.yaml'], {
      'bad.yaml': manifest('bad', { model: { source: 'custom', servedName: 'x' }, image: 'registry.example/m:1', serving: { mode: 'disaggregated' } }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'bad.yaml: ModelDeployment default/bad is invalid (2 errors, 1 warning)',
        '  error   spec.scaling: Disaggregated mode requires scaling.prefill and scaling.decode',
        '  error   spec.engine.type: engine.type is required',
        '  warning spec.model.servedName: servedName is ignored for custom source',
        '',
      ].join('\n'),
    );
  });

  it('a provider no built-in config names is said to be the cluster\'s to know, not called registered', async () => {
    const spec = { model: { id: 'org/m' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
    const acme = await run(['validate', '-f', 'a.yaml'], { 'a.yaml': manifest('a', { ...spec, provider: { name: 'acme' } }) });
    expect(acme.stdout).toContain(
      "warning spec.provider.name: 'acme' is not a built-in provider: offline, whether your cluster registered it (an InferenceProviderConfig named 'acme') cannot be known, and the admission webhook refuses it if not; `kar explain --cluster -f FILE` selects with the cluster's providers",
    );
    const dynamo = await run(['validate', '-f', 'd.yaml'], { 'd.yaml': manifest('d', { ...spec, provider: { name: 'dynamo' } }) });
    expect(dynamo.stdout).toBe('d.yaml: ModelDeployment default/d is valid\n');
  });

  it('warnings alone do not fail', async () => {
    const result = await run(['validate', '-f', 'w.yaml'], {
      'w.yaml': manifest('w', { model: { source: 'custom', servedName: 'x' }, engine: { type: 'llamacpp' }, image: 'registry.example/m:1' }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('is valid (0 errors, 1 warning)');
  });

  it('rejects what a cluster would break on later, naming the field and what is allowed', async () => {
    const spec = {
      model: { source: 'custom' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1_000_000_000 } },
      secrets: { huggingFaceToken: 'HF_Token' },
    };
    const result = await run(['validate', '-f', 'x.yaml'], { 'x.yaml': manifest('x', spec) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'x.yaml: ModelDeployment default/x is invalid (3 errors, 0 warnings)',
        '  error   spec.resources.gpu.count: spec.resources.gpu.count must be at most 128, got 1000000000',
        `  error   spec.secrets.huggingFaceToken: spec.secrets.huggingFaceToken must be an object name (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, such as "hf-token"), got "HF_Token"`,
        '  error   spec.image: image is required when source is custom (the model is pre-loaded in the image; provider default images hold no model)',
        '',
      ].join('\n'),
    );
  });

  it('checks overrides against the explicit provider', async () => {
    const spec = {
      model: { id: 'org/m' },
      engine: { type: 'vllm' },
      resources: { gpu: { count: 1 } },
      provider: { name: 'dynamo', overrides: { routerMode: 'kv', frontend: { replicsa: 2 } } },
    };
    const result = await run(['validate', '-f', 'o.yaml'], { 'o.yaml': manifest('o', spec) });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "warning spec.provider.overrides.frontend.replicsa: Unknown override key 'spec.provider.overrides.frontend.replicsa' is ignored",
    );
  });

  it('reads several documents from stdin and skips empty ones', async () => {
    const stdin = `${manifest('a', { model: { id: 'x/y' }, engine: { type: 'llamacpp' } })}\n---\n${manifest('b', {})}\n---\n`;
    const result = await run(['validate', '-f', '-'], {}, stdin);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('stdin#1: ModelDeployment default/a is valid');
    expect(result.stdout).toContain('stdin#2: ModelDeployment default/b is invalid');
  });

  it('reads every manifest of a directory', async () => {
    const files = { 'dir/a.yaml': manifest('a', { model: { id: 'x/y' }, engine: { type: 'llamacpp' } }), 'dir/b.yaml': manifest('b', { model: { id: 'x/y' }, engine: { type: 'llamacpp' } }) };
    const result = await run(['validate', '-f', 'dir'], files);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('checks the envelope like the API server', async () => {
    const result = await run(['validate', '-f', 'e.yaml'], {
      'e.yaml': JSON.stringify({ apiVersion: 'kubeairunway.ai/v1', kind: 'ModelDeployment', metadata: { name: 'Not_Valid' }, spec: { model: { id: 'a/b' }, engine: { type: 'llamacpp' } } }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error   apiVersion: apiVersion must be kubeairunway.ai/v1alpha1, got "kubeairunway.ai/v1"');
    expect(result.stdout).toContain('error   metadata.name: metadata.name must be a lower-case DNS name such as "llama-8b", got "Not_Valid"');
  });

  it('a name over 253 characters is refused in the API server\'s sentence, with its length', async () => {
    const spec = { model: { id: 'a/b' }, engine: { type: 'llamacpp' } };
    const long = await run(['validate', '-f', 'l.yaml'], { 'l.yaml': manifest('a'.repeat(254), spec) });
    expect(long.code).toBe(1);
    expect(long.stdout).toContain('error   metadata.name: metadata.name must be no more than 253 characters, got 254\n');
    expect((await run(['validate', '-f', 'm.yaml'], { 'm.yaml': manifest('a'.repeat(253), spec) })).code).toBe(0);
  });

  it('validates InferenceProviderConfigs too', async () => {
    const good = providerConfig('mine', { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true }, selectionRules: [{ condition: 'true', priority: 5 }] });
    const bad = providerConfig('bad', { capabilities: { servingModes: ['sideways'] }, selectionRules: [{ priority: 'high' }] });
    const result = await run(['validate', '-f', 'good.yaml', '-f', 'bad.yaml'], { 'good.yaml': good, 'bad.yaml': bad });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('good.yaml: InferenceProviderConfig mine is valid');
    expect(result.stdout).toContain('error   spec.capabilities.servingModes[0]: spec.capabilities.servingModes[0] must be one of aggregated, disaggregated, got "sideways"');
    expect(result.stdout).toContain('error   spec.selectionRules[0].condition: spec.selectionRules[0].condition is required');
    expect(result.stdout).toContain('error   spec.selectionRules[0].priority: spec.selectionRules[0].priority must be an integer, got string');
  });

  it('refuses selection rules the admission webhook refuses, with its sentence for each', async () => {
    const rules = ['spec.engine.type ==', 'nosuch.thing == 1', '1 + 1'].map((condition, i) => ({ condition, priority: i + 1 }));
    const config = { capabilities: { engines: ['vllm'], servingModes: ['aggregated'] }, selectionRules: rules };
    const result = await run(['validate', '-f', 'c.yaml'], { 'c.yaml': providerConfig('acme', config) });
    expect(result.code).toBe(1);
    const { selectionRuleCompileErrors } = await import('../../providers/rule-errors.ts');
    const webhook = selectionRuleCompileErrors(config);
    expect(webhook).toHaveLength(3);
    expect(result.stdout).toBe(`c.yaml: InferenceProviderConfig acme is invalid (3 errors, 0 warnings)\n${webhook.map((e) => `  error   ${e.field}: ${e.message}\n`).join('')}`);
    expect(result.stdout).toContain('rule 3 (1 + 1) does not compile: condition has type int, not bool');
  });

  it('rejects other kinds', async () => {
    const result = await run(['validate', '-f', 'cm.yaml'], { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error   kind: kind must be ModelDeployment, InferenceProviderConfig, FlameCluster, AsyncActor, KybernateCheckpoint, KybernateRestore or KybernateWorkload, got "ConfigMap"');
  });

  it('json output', async () => {
    const result = await run(['validate', '-f', 'examples/gpu-vllm-dynamo.yaml', '-o', 'json']);
    expect(JSON.parse(result.stdout)).toEqual([
      { source: 'examples/gpu-vllm-dynamo.yaml', object: 'ModelDeployment default/llama-8b', valid: true, errors: [], warnings: [] },
    ]);
  });

  describe('input errors are one sentence and exit 1', () => {
    it.each([
      [['validate', '-f', 'missing.yaml'], 'error: Cannot read missing.yaml: no such file.\n'],
      [['validate', '-f', 'broken.yaml'], /^error: broken\.yaml is not valid YAML \(line 1\): .+\.\n$/],
      [['validate', '-f', 'list.yaml'], 'error: list.yaml is not a Kubernetes object (expected a mapping with apiVersion and kind).\n'],
      [['validate', '-f', 'empty.yaml'], 'error: No objects found in empty.yaml.\n'],
    ])('%j', async (argv, message) => {
      const files = { 'broken.yaml': 'kind: [unclosed', 'list.yaml': '- a\n- b\n', 'empty.yaml': '# nothing\n' };
      const result = await run(argv, files);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      if (typeof message === 'string') expect(result.stderr).toBe(message);
      else expect(result.stderr).toMatch(message);
    });

    it('missing -f', async () => {
      const result = await run(['validate']);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe("error: required option '-f, --filename <path...>' not specified\n");
    });
  });
});

describe('kubeairunway validate: FlameClusters', () => {
  const flame = (name: string, spec: unknown) => JSON.stringify({ apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', metadata: { name }, spec });
  const SPEC = { sessionManager: { image: 'xflops/flame-session:v0.1.0' }, executorManager: { image: 'xflops/flame-executor:v0.1.0', replicas: 3 } };

  it('examples/flame-cluster.yaml is valid', async () => {
    expect(await run(['validate', '-f', 'examples/flame-cluster.yaml'])).toEqual({ code: 0, stdout: 'examples/flame-cluster.yaml: FlameCluster default/my-flame is valid\n', stderr: '' });
  });

  it('prints every field error and exits 1', async () => {
    const spec = { sessionManager: { image: '' }, executorManager: { image: 'e:1', replicas: -1, maxExecutors: 0 } };
    const result = await run(['validate', '-f', 'f.yaml'], { 'f.yaml': flame('bad', spec) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'f.yaml: FlameCluster default/bad is invalid (3 errors, 0 warnings)',
        '  error   spec.sessionManager.image: must not be empty',
        '  error   spec.executorManager.replicas: must be at least 0, got -1',
        '  error   spec.executorManager.maxExecutors: must be at least 1, got 0',
        '',
      ].join('\n'),
    );
  });

  it('a name too long for the pod hostnames', async () => {
    const result = await run(['validate', '-f', 'f.yaml'], { 'f.yaml': flame('a'.repeat(45), SPEC) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`error   metadata.name: is too long: with 3 executors the pod "${'a'.repeat(45)}-executor-manager-2" would have 64 characters`);
  });

  it('unknown fields are errors, as kubectl apply refuses them (strict field validation)', async () => {
    const spec = { ...SPEC, executorManager: { ...SPEC.executorManager, maxExecutor: 4 } };
    const result = await run(['validate', '-f', 'f.yaml'], { 'f.yaml': flame('typo', spec) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'f.yaml: FlameCluster default/typo is invalid (1 error, 0 warnings)\n  error   spec.executorManager.maxExecutor: unknown field "spec.executorManager.maxExecutor": kubectl apply refuses it (strict decoding error); the schema does not declare it\n',
    );
  });

  it('a multi-document file may mix kinds', async () => {
    const stdin = `${flame('f', SPEC)}\n---\n${manifest('m', { model: { id: 'x/y' }, engine: { type: 'llamacpp' } })}\n---\n${flame('g', {})}\n`;
    const result = await run(['validate', '-f', '-', '-o', 'json'], {}, stdin);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      { source: 'stdin#1', object: 'FlameCluster default/f', valid: true, errors: [], warnings: [] },
      { source: 'stdin#2', object: 'ModelDeployment default/m', valid: true, errors: [], warnings: [] },
      {
        source: 'stdin#3',
        object: 'FlameCluster default/g',
        valid: false,
        errors: [
          { field: 'spec.sessionManager', message: 'is required' },
          { field: 'spec.executorManager', message: 'is required' },
        ],
        warnings: [],
      },
    ]);
  });

  it('the wrong apiVersion for the kind', async () => {
    const result = await run(['validate', '-f', 'f.yaml'], { 'f.yaml': JSON.stringify({ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'FlameCluster', metadata: { name: 'x' }, spec: SPEC }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error   apiVersion: must be flame.xflops.io/v1alpha1, got "kubeairunway.ai/v1alpha1"');
  });
});

describe('kubeairunway validate: AsyncActors', () => {
  const actor = (name: string, spec: unknown, namespace?: string) =>
    JSON.stringify({ apiVersion: 'asya.sh/v1alpha1', kind: 'AsyncActor', metadata: { name, ...(namespace ? { namespace } : {}) }, spec });
  const STANDALONE = { transport: 'rabbitmq', workload: { template: { spec: { containers: [{ name: 'asya-runtime', image: 'python:3.13' }] } } } };
  const BINDING = { transport: 'rabbitmq', workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'vllm' }, runtime: { handler: 'a.b', targetURL: 'http://vllm:8000' } };

  it.each(['examples/async-actor-standalone.yaml', 'examples/async-actor-binding.yaml'])('%s is valid', async (file) => {
    const result = await run(['validate', '-f', file]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/: AsyncActor default\/[a-z-]+ is valid\n$/);
  });

  it("both workload and workloadRef: the seed's message", async () => {
    const result = await run(['validate', '-f', 'a.yaml'], { 'a.yaml': actor('both', { ...STANDALONE, workloadRef: BINDING.workloadRef }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error   spec: Exactly one of 'workload' or 'workloadRef' must be set");
  });

  it('workloadRef without runtime', async () => {
    const { runtime: _runtime, ...spec } = BINDING;
    const result = await run(['validate', '-f', 'a.yaml'], { 'a.yaml': actor('bare', spec) });
    expect(result.stdout).toBe("a.yaml: AsyncActor default/bare is invalid (1 error, 0 warnings)\n  error   spec.runtime: 'runtime' is required when 'workloadRef' is set\n");
  });

  it('a user container named asya-sidecar', async () => {
    const spec = structuredClone(STANDALONE);
    spec.workload.template.spec.containers.push({ name: 'asya-sidecar', image: 'mine' });
    const result = await run(['validate', '-f', 'a.yaml'], { 'a.yaml': actor('clash', spec) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error   spec.workload.template.spec.containers[1].name: 'asya-sidecar' is reserved for the sidecar the controller adds");
  });

  it('a workloadRef into another namespace than the actor (default when omitted)', async () => {
    const spec = { ...BINDING, workloadRef: { ...BINDING.workloadRef, namespace: 'serving' } };
    const result = await run(['validate', '-f', 'a.yaml'], { 'a.yaml': actor('far', spec) });
    expect(result.stdout).toContain(`error   spec.workloadRef.namespace: must be the AsyncActor's own namespace (default), got "serving"`);
    expect((await run(['validate', '-f', 'a.yaml'], { 'a.yaml': actor('near', spec, 'serving') })).code).toBe(0);
  });

  it('refuses unknown fields as kubectl apply does, but not inside the pod template', async () => {
    const spec = { ...STANDALONE, scaling: { enable: true }, workload: { template: { spec: { containers: [{ name: 'asya-runtime', image: 'x', anything: 1 }] } } } };
    const result = await run(['validate', '-f', 'a.yaml'], { 'a.yaml': actor('typo', spec) });
    expect(result.stdout).toBe('a.yaml: AsyncActor default/typo is invalid (1 error, 0 warnings)\n  error   spec.scaling.enable: unknown field "spec.scaling.enable": kubectl apply refuses it (strict decoding error); the schema does not declare it\n');
  });
});

describe('kubeairunway validate: Kybernate kinds', () => {
  const kybernate = (kind: string, name: string, spec: unknown) => JSON.stringify({ apiVersion: 'kybernate.io/v1alpha1', kind, metadata: { name }, spec });

  it('the three examples are valid', async () => {
    const files = ['examples/kybernate-checkpoint.yaml', 'examples/kybernate-restore.yaml', 'examples/kybernate-workload.yaml'];
    expect(await run(['validate', ...files.flatMap((f) => ['-f', f])])).toEqual({
      code: 0,
      stdout: [
        'examples/kybernate-checkpoint.yaml: KybernateCheckpoint default/my-gpu-checkpoint is valid',
        'examples/kybernate-restore.yaml: KybernateRestore default/my-gpu-restore is valid',
        'examples/kybernate-workload.yaml: KybernateWorkload default/llm-inference is valid',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('a checkpoint: the storage rule in the CRD\'s words, every field error, exit 1', async () => {
    const result = await run(['validate', '-f', 'c.yaml'], { 'c.yaml': kybernate('KybernateCheckpoint', 'c', { timeout: 0, storage: { type: 's3', bucket: 'b' } }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'c.yaml: KybernateCheckpoint default/c is invalid (3 errors, 0 warnings)',
        '  error   spec.podName: is required',
        '  error   spec.timeout: must be at least 1, got 0',
        "  error   spec.storage: 'storage.bucket' and 'storage.key' are required when 'storage.type' is s3",
        '',
      ].join('\n'),
    );
  });

  it('a restore with both sources', async () => {
    const result = await run(['validate', '-f', 'r.yaml'], { 'r.yaml': kybernate('KybernateRestore', 'r', { checkpointRef: 'c', checkpointImage: 'containerd.io/checkpoint/c:1' }) });
    expect(result.stdout).toBe("r.yaml: KybernateRestore default/r is invalid (1 error, 0 warnings)\n  error   spec: Exactly one of 'checkpointRef' or 'checkpointImage' must be set\n");
  });

  it('a workload: a bad duration, and a template no pod can be made from (which only the workflow sees)', async () => {
    const result = await run(['validate', '-f', 'w.yaml'], { 'w.yaml': kybernate('KybernateWorkload', 'w', { template: { spec: { containers: [] } }, activator: { queueTimeout: '30' } }) });
    expect(result.stdout).toBe(
      [
        'w.yaml: KybernateWorkload default/w is invalid (2 errors, 0 warnings)',
        '  error   spec.template.spec.containers: required: a list of at least one container',
        '  error   spec.activator.queueTimeout: must be a positive duration such as "30s", "5m" or "1h30m" (whole numbers; units ms, s, m, h), got "30"',
        '',
      ].join('\n'),
    );
  });

  it('refuses unknown fields as kubectl apply does, but not inside the pod template', async () => {
    const spec = { template: { spec: { containers: [{ name: 'm', image: 'x', anything: 1 }] } }, suspend: { idleTimout: '1m' } };
    const result = await run(['validate', '-f', 'w.yaml'], { 'w.yaml': kybernate('KybernateWorkload', 'w', spec) });
    expect(result.stdout).toBe('w.yaml: KybernateWorkload default/w is invalid (1 error, 0 warnings)\n  error   spec.suspend.idleTimout: unknown field "spec.suspend.idleTimout": kubectl apply refuses it (strict decoding error); the schema does not declare it\n');
  });
});
