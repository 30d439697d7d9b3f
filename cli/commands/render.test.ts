import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { manifest, providerConfig, run } from '../testing/run.ts';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace: string }; [k: string]: unknown };

function objects(yaml: string): Obj[] {
  return parseAllDocuments(yaml).map((d) => d.toJS() as Obj);
}

const GPU = { model: { id: 'org/model' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };

describe('kubeairunway render: the seed examples', () => {
  it("Example 1 renders a DynamoGraphDeployment in Dynamo's newest served version", async () => {
    const result = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [dgd] = objects(result.stdout);
    expect(dgd).toMatchObject({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { name: 'llama-8b', namespace: 'default' } });
    expect(dgd?.metadata).toMatchObject({
      labels: { 'kubeairunway.ai/managed-by': 'kubeairunway' },
      ownerReferences: [{ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'llama-8b', controller: true }],
    });
  });

  it('Example 2 renders a KAITO Workspace', async () => {
    const result = await run(['render', '-f', 'examples/cpu-gguf-kaito.yaml']);
    expect(result.code).toBe(0);
    expect(objects(result.stdout)[0]).toMatchObject({ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', metadata: { name: 'gemma-cpu' } });
  });

  it('Example 3 renders prefill and decode workers', async () => {
    const result = await run(['render', '-f', 'examples/disaggregated-dynamo.yaml']);
    expect(result.code).toBe(0);
    const [dgd] = objects(result.stdout) as Array<Obj & { spec: { components: { name: string; type: string }[] } }>;
    expect(dgd?.kind).toBe('DynamoGraphDeployment');
    expect(dgd?.spec.components.map((c) => c.type)).toEqual(['frontend', 'prefill', 'decode']);
  });

  it('--api-version nvidia.com/v1alpha1 renders Dynamo in the older v1alpha1 shape; other providers keep theirs; an unknown version fails', async () => {
    const result = await run(['render', '-f', 'examples/disaggregated-dynamo.yaml', '-f', 'examples/cpu-gguf-kaito.yaml', '--api-version', 'nvidia.com/v1alpha1']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [dgd, ws] = objects(result.stdout);
    expect(dgd?.apiVersion).toBe('nvidia.com/v1alpha1');
    expect(JSON.stringify(dgd)).toContain('"subComponentType":"prefill"');
    expect(JSON.stringify(dgd)).toContain('"subComponentType":"decode"');
    expect(ws?.apiVersion).toBe('kaito.sh/v1beta1');
    const bad = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml', '--api-version', 'nvidia.com/v2']);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain('--api-version nvidia.com/v2: DynamoGraphDeployment is rendered in nvidia.com/v1beta1 or nvidia.com/v1alpha1');
  });

  it('the minimal CPU llama.cpp example goes to KAITO', async () => {
    const result = await run(['render', '-f', 'examples/cpu-llamacpp-minimal.yaml']);
    expect(result.code).toBe(0);
    expect(objects(result.stdout)[0]?.kind).toBe('Workspace');
  });

  it('is deterministic', async () => {
    const first = await run(['render', '-f', 'examples/disaggregated-dynamo.yaml']);
    const second = await run(['render', '-f', 'examples/disaggregated-dynamo.yaml']);
    expect(second.stdout).toBe(first.stdout);
  });

  it('-o json prints one object, or a List for several', async () => {
    const one = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml', '-o', 'json']);
    expect(JSON.parse(one.stdout).kind).toBe('DynamoGraphDeployment');
    const several = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml', '-f', 'examples/disaggregated-dynamo.yaml', '-o', 'json']);
    const list = JSON.parse(several.stdout);
    expect(list.kind).toBe('List');
    expect(list.items.map((o: Obj) => o.metadata.name)).toContain('llama-70b-pd');
  });

  it('a YAML stream separates objects with ---', async () => {
    const result = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml', '-f', 'examples/cpu-gguf-kaito.yaml']);
    expect(objects(result.stdout).map((o) => o.kind)).toEqual(expect.arrayContaining(['DynamoGraphDeployment', 'Workspace']));
    expect(result.stdout).toContain('\n---\n');
  });
});

describe('kubeairunway render: provider compatibility table (seed 001 §8, seed 000)', () => {
  const gpu = (engine: string) => ({ ...GPU, engine: { type: engine } });
  const cpu = (engine: string) => ({ ...GPU, engine: { type: engine }, resources: { gpu: { count: 0 } } });
  const disaggregated = {
    model: { id: 'org/model' },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
  };

  it.each([
    ['kaito', gpu('sglang'), 'KAITO does not support sglang engine'],
    ['kaito', gpu('trtllm'), 'KAITO does not support trtllm engine'],
    ['dynamo', cpu('llamacpp'), 'Dynamo does not support llamacpp engine'],
    ['kuberay', cpu('llamacpp'), 'KubeRay does not support llamacpp engine'],
    ['kuberay', gpu('sglang'), 'KubeRay does not support sglang engine'],
    ['kuberay', gpu('trtllm'), 'KubeRay does not support trtllm engine'],
    ['dynamo', cpu('llamacpp'), 'Dynamo requires GPU (set resources.gpu.count > 0)'],
    ['kuberay', cpu('llamacpp'), 'KubeRay requires GPU (set resources.gpu.count > 0)'],
    ['kaito', disaggregated, 'KAITO does not support disaggregated mode'],
  ])('%s: %s', async (provider, spec, message) => {
    const result = await run(['render', '-f', 'md.yaml', '--provider', provider], { 'md.yaml': manifest('md', spec) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toContain(`  ${message}`);
  });
});

describe('kubeairunway render: failures', () => {
  it('prints nothing on stdout when any deployment fails', async () => {
    const result = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml', '-f', 'bad.yaml'], { 'bad.yaml': manifest('bad', { model: { id: 'a/b' } }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('bad.yaml: ModelDeployment default/bad cannot be rendered:\n  engine.type is required\n  No compatible provider found for engine=(unset), gpu=false, mode=aggregated\n');
  });

  it('shows warnings on stderr', async () => {
    const spec = { ...GPU, provider: { name: 'kaito', overrides: { foo: 1 } } };
    const result = await run(['render', '-f', 'md.yaml'], { 'md.yaml': manifest('md', spec) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("warning: md.yaml: ModelDeployment default/md: spec.provider.overrides.foo: Unknown override key 'spec.provider.overrides.foo' is ignored\n");
  });

  it('says when the provider resource gets a derived name', async () => {
    const name = `llama-${'x'.repeat(58)}`;
    const result = await run(['render', '-f', 'md.yaml'], { 'md.yaml': manifest(name, { ...GPU, provider: { name: 'dynamo' } }) });
    expect(result.code).toBe(0);
    const graphName = /\n {2}name: (\S+)\n/.exec(result.stdout)?.[1];
    expect(graphName).toMatch(/^llama-x{28}-[0-9a-f]{8}$/);
    expect(result.stderr).toBe(
      `warning: md.yaml: ModelDeployment default/${name}: metadata.name '${name}' is not a DNS-1035 label of at most 43 characters, which DynamoGraphDeployment names must be (its operator derives Service and pod names from them): the DynamoGraphDeployment is named '${graphName}'\n`,
    );
  });

  it('an override of the wrong type fails', async () => {
    const spec = { ...GPU, provider: { name: 'dynamo', overrides: { frontend: { replicas: 'two' } } } };
    const result = await run(['render', '-f', 'md.yaml'], { 'md.yaml': manifest('md', spec) });
    expect(result.code).toBe(1);
    expect(result.stderr.split('spec.provider.overrides.frontend.replicas must be an integer, got string')).toHaveLength(2);
  });

  it('no healthy provider', async () => {
    const down = (name: string) => providerConfig(name, {}, { ready: false });
    const files = { 'md.yaml': manifest('md', GPU), 'a.yaml': down('dynamo'), 'b.yaml': down('kaito'), 'c.yaml': down('kuberay'), 'd.yaml': down('deployment') };
    const result = await run(['render', '-f', 'md.yaml', '--provider-config', 'a.yaml', 'b.yaml', 'c.yaml', 'd.yaml'], files);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('  No healthy providers available\n');
  });

  it('a third-party provider cannot be rendered offline', async () => {
    const config = providerConfig('acme', { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true }, selectionRules: [{ condition: "spec.model.id.startsWith('org/')", priority: 1000 }] });
    const result = await run(['render', '-f', 'md.yaml', '--provider-config', 'acme.yaml'], { 'md.yaml': manifest('md', GPU), 'acme.yaml': config });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Provider 'acme' has no built-in implementation, so it cannot be rendered offline (built-in providers: deployment, dynamo, kaito, kuberay)");
  });

  it('an unknown explicit provider', async () => {
    const result = await run(['render', '-f', 'md.yaml', '--provider', 'nope'], { 'md.yaml': manifest('md', GPU) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Provider 'nope' is unknown");
  });

  it('only ModelDeployments in -f', async () => {
    const result = await run(['render', '-f', 'c.yaml'], { 'c.yaml': providerConfig('x', {}) });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: c.yaml holds InferenceProviderConfig x; render takes ModelDeployments, FlameClusters, AsyncActors, KybernateCheckpoints, KybernateRestores and KybernateWorkloads, Deployments or StatefulSets next to AsyncActors and Pods next to KybernateRestores (pass provider configs with --provider-config).\n',
    });
  });

  it('a broken provider config is one sentence', async () => {
    const result = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml', '--provider-config', 'p.yaml'], { 'p.yaml': providerConfig('p', { selectionRules: 'all' }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: p.yaml: spec.selectionRules must be a list, got string.\n');
  });

  it('rejects an unknown output format', async () => {
    const result = await run(['render', '-f', 'examples/gpu-vllm-dynamo.yaml', '-o', 'xml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("argument 'xml' is invalid");
  });
});

it('the rendered YAML parses back to the JSON rendering', async () => {
  const yaml = await run(['render', '-f', 'examples/disaggregated-dynamo.yaml']);
  const json = await run(['render', '-f', 'examples/disaggregated-dynamo.yaml', '-o', 'json']);
  expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
});

describe('kubeairunway render: FlameClusters', () => {
  const flame = (name: string, spec: unknown, namespace?: string) =>
    JSON.stringify({ apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', metadata: { name, ...(namespace ? { namespace } : {}) }, spec });
  const SPEC = { sessionManager: { image: 's:1' }, executorManager: { image: 'e:1', replicas: 2 } };
  const ids = (os: Obj[]) => os.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`);

  it('examples/flame-cluster.yaml renders every child: ConfigMap, Services, session manager, executors by index', async () => {
    const result = await run(['render', '-f', 'examples/flame-cluster.yaml']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const children = objects(result.stdout);
    expect(ids(children)).toEqual([
      'ConfigMap/default/my-flame-config',
      'Service/default/my-flame-session-manager',
      'Service/default/my-flame-object-cache',
      'Pod/default/my-flame-session-manager',
      'Pod/default/my-flame-executor-manager-0',
      'Pod/default/my-flame-executor-manager-1',
      'Pod/default/my-flame-executor-manager-2',
    ]);
    for (const child of children) {
      // Offline there is no uid to refer to.
      expect(child.metadata).toMatchObject({ labels: { 'flame.xflops.io/cluster': 'my-flame' }, ownerReferences: [{ apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', name: 'my-flame', controller: true, blockOwnerDeletion: true }] });
      expect((child.metadata as unknown as { ownerReferences: object[] }).ownerReferences[0]).not.toHaveProperty('uid');
    }
    expect(parse((children[0]!.data as Record<string, string>)['flame-cluster.yaml']!)).toMatchObject({ executors: { shim: 'host', limits: { max_executors: 10 } } });
  });

  it('is deterministic, and the YAML parses back to the JSON rendering', async () => {
    const first = await run(['render', '-f', 'examples/flame-cluster.yaml']);
    expect((await run(['render', '-f', 'examples/flame-cluster.yaml'])).stdout).toBe(first.stdout);
    const json = await run(['render', '-f', 'examples/flame-cluster.yaml', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ apiVersion: 'v1', kind: 'List', items: objects(first.stdout) });
  });

  it('keeps the namespace it is given', async () => {
    const result = await run(['render', '-f', 'f.yaml'], { 'f.yaml': flame('f', SPEC, 'flame') });
    expect(ids(objects(result.stdout))[0]).toBe('ConfigMap/flame/f-config');
  });

  it('replicas 0 renders the session manager and both Services only', async () => {
    const result = await run(['render', '-f', 'f.yaml'], { 'f.yaml': flame('f', { ...SPEC, executorManager: { image: 'e:1', replicas: 0 } }) });
    expect(ids(objects(result.stdout))).toEqual(['ConfigMap/default/f-config', 'Service/default/f-session-manager', 'Service/default/f-object-cache', 'Pod/default/f-session-manager']);
  });

  it('mixes with ModelDeployments, in input order', async () => {
    const stdin = `${manifest('md', GPU)}\n---\n${flame('f', SPEC)}\n`;
    const result = await run(['render', '-f', '-'], {}, stdin);
    expect(result.code).toBe(0);
    expect(objects(result.stdout).map((o) => o.kind)).toEqual(['DynamoGraphDeployment', 'ConfigMap', 'Service', 'Service', 'Pod', 'Pod', 'Pod']);
  });

  it('an invalid FlameCluster prints its field errors and nothing on stdout', async () => {
    const bad = { sessionManager: { image: 's:1' }, executorManager: { image: 'e:1', replicas: -1 } };
    const result = await run(['render', '-f', 'examples/flame-cluster.yaml', '-f', 'bad.yaml'], { 'bad.yaml': flame('bad', bad) });
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'bad.yaml: FlameCluster default/bad cannot be rendered:\n  spec.executorManager.replicas: must be at least 0, got -1\n' });
  });

  it('warns about unknown fields', async () => {
    const result = await run(['render', '-f', 'f.yaml'], { 'f.yaml': flame('f', { ...SPEC, objectCache: { netInterface: 'eth0' } }) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("warning: f.yaml: FlameCluster default/f: spec.objectCache.netInterface: Unknown field 'spec.objectCache.netInterface' is not part of the schema\n");
  });
});

describe('kubeairunway render: AsyncActors', () => {
  const actor = (name: string, spec: unknown, namespace?: string) =>
    JSON.stringify({ apiVersion: 'asya.sh/v1alpha1', kind: 'AsyncActor', metadata: { name, ...(namespace ? { namespace } : {}) }, spec });
  const deployment = (name: string, extra: Record<string, unknown> = {}, namespace?: string) =>
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, ...(namespace ? { namespace } : {}), ...extra },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'server', image: 'vllm/vllm-openai:v0.6' }] } } },
    });
  const BINDING = { transport: 'rabbitmq', workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'vllm' }, runtime: { handler: 'adapters.openai.forward', targetService: { name: 'vllm', port: 8000 } } };
  const ids = (os: Obj[]) => os.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`);
  const pod = (o: Obj) => (o.spec as { template: { spec: { containers: { name: string; env?: { name: string; value?: string }[] }[]; volumes: { name: string }[] } } }).template.spec;
  const env = (o: Obj, container: string, name: string) => pod(o).containers.find((c) => c.name === container)?.env?.find((e) => e.name === name)?.value;

  it('examples/async-actor-standalone.yaml: the runtime ConfigMap, the Deployment with both containers, the ScaledObject', async () => {
    const result = await run(['render', '-f', 'examples/async-actor-standalone.yaml']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const rendered = objects(result.stdout);
    expect(ids(rendered)).toEqual(['ConfigMap/default/asya-runtime', 'Deployment/default/text-processor', 'ScaledObject/default/text-processor']);
    expect(pod(rendered[1]!).containers.map((c) => c.name)).toEqual(['asya-runtime', 'asya-sidecar']);
    expect(pod(rendered[1]!).volumes.map((v) => v.name)).toEqual(['socket-dir', 'tmp', 'asya-runtime']);
    // Offline there is no uid to refer to.
    expect(rendered[1]!.metadata).toMatchObject({ ownerReferences: [{ apiVersion: 'asya.sh/v1alpha1', kind: 'AsyncActor', name: 'text-processor', controller: true }] });
    expect((rendered[1]!.metadata as unknown as { ownerReferences: object[] }).ownerReferences[0]).not.toHaveProperty('uid');
    expect(rendered[2]!.spec).toMatchObject({ scaleTargetRef: { kind: 'Deployment', name: 'text-processor' }, triggers: [{ type: 'rabbitmq', metadata: { queueName: 'asya-text-processor' } }] });
  });

  it('examples/async-actor-binding.yaml with the ModelDeployment: the Workspace, then the injection into its Deployment and a ScaledObject on the ModelDeployment', async () => {
    const result = await run(['render', '-f', 'examples/async-actor-binding.yaml', '-f', 'examples/cpu-gguf-kaito.yaml']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'warning: examples/async-actor-binding.yaml: AsyncActor default/gemma-async: KAITO names the workload of Workspace default/gemma-cpu after it: rendered for Deployment default/gemma-cpu (pass the workload\'s manifest with -f to render for it)\n',
    );
    const rendered = objects(result.stdout);
    expect(ids(rendered)).toEqual(['ConfigMap/default/asya-runtime', 'Deployment/default/gemma-cpu', 'ScaledObject/default/gemma-async', 'Workspace/default/gemma-cpu']);
    const intent = rendered[1]!;
    expect(Object.keys(intent)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(intent.metadata).toEqual({
      name: 'gemma-cpu',
      namespace: 'default',
      labels: { 'asya.sh/managed-by': 'gemma-async' },
      annotations: { 'asya.sh/managed-by': 'gemma-async', 'asya.sh/mode': 'binding' },
    });
    // The ModelDeployment's endpoint, as KAITO's status would give it.
    expect(env(intent, 'asya-runtime', 'ASYA_TARGET_URL')).toBe('http://gemma-cpu.default.svc.cluster.local:80');
    expect(rendered[2]!.spec).toMatchObject({ scaleTargetRef: { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'gemma-cpu' }, minReplicaCount: 0, maxReplicaCount: 3 });
  });

  it('a ModelDeployment binding alone cannot know the endpoint offline', async () => {
    const result = await run(['render', '-f', 'examples/async-actor-binding.yaml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      "  spec.runtime: the ModelDeployment default/gemma-cpu names its server in status.endpoint, which is not known offline: pass its manifest with -f, or set runtime.targetURL or runtime.targetService\n",
    );
  });

  it('a Deployment target without its manifest: the intent for the workloadRef by name, the derived Service URL', async () => {
    const result = await run(['render', '-f', 'a.yaml', '-o', 'json'], { 'a.yaml': actor('vllm-async', BINDING, 'serving') });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const intent = JSON.parse(result.stdout).items[1] as Obj;
    expect(ids([intent])).toEqual(['Deployment/serving/vllm']);
    expect(env(intent, 'asya-runtime', 'ASYA_TARGET_URL')).toBe('http://vllm.serving.svc.cluster.local:8000');
    expect(JSON.parse(result.stdout).items).toHaveLength(2);
  });

  it('with the target manifest: checked for conflicts, not printed', async () => {
    const ok = await run(['render', '-f', 'a.yaml', '-f', 'd.yaml'], { 'a.yaml': actor('vllm-async', BINDING), 'd.yaml': deployment('vllm') });
    expect(ok.code).toBe(0);
    expect(ids(objects(ok.stdout))).toEqual(['ConfigMap/default/asya-runtime', 'Deployment/default/vllm']);

    const managed = await run(['render', '-f', 'a.yaml', '-f', 'd.yaml'], { 'a.yaml': actor('vllm-async', BINDING), 'd.yaml': deployment('vllm', { labels: { 'asya.sh/managed-by': 'another' } }) });
    expect(managed).toEqual({
      code: 1,
      stdout: '',
      stderr: 'a.yaml: AsyncActor default/vllm-async cannot be rendered:\n  Deployment/default/vllm: AlreadyManaged: another AsyncActor already manages this workload\n',
    });
  });

  it("a Workspace target: the Deployment it owns, when given", async () => {
    const spec = { ...BINDING, workloadRef: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'phi-3' } };
    const owned = deployment('phi-3-0', { ownerReferences: [{ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'phi-3', uid: 'u', controller: true }] });
    const result = await run(['render', '-f', 'a.yaml', '-f', 'd.yaml'], { 'a.yaml': actor('phi', spec), 'd.yaml': owned });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(ids(objects(result.stdout))[1]).toBe('Deployment/default/phi-3-0');
  });

  it('a Deployment alone is not rendered', async () => {
    const result = await run(['render', '-f', 'd.yaml'], { 'd.yaml': deployment('vllm') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: d.yaml holds Deployment default/vllm; render takes ModelDeployments, FlameClusters, AsyncActors');
  });

  it('an invalid actor prints its field errors and nothing on stdout', async () => {
    const { runtime: _runtime, ...spec } = BINDING;
    const result = await run(['render', '-f', 'examples/async-actor-standalone.yaml', '-f', 'a.yaml'], { 'a.yaml': actor('bad', spec) });
    expect(result).toEqual({ code: 1, stdout: '', stderr: "a.yaml: AsyncActor default/bad cannot be rendered:\n  spec.runtime: 'runtime' is required when 'workloadRef' is set\n" });
  });

  it('is deterministic, and the YAML parses back to the JSON rendering', async () => {
    const args = ['render', '-f', 'examples/async-actor-standalone.yaml', '-f', 'examples/cpu-gguf-kaito.yaml', '-f', 'examples/async-actor-binding.yaml'];
    const first = await run(args);
    expect((await run(args)).stdout).toBe(first.stdout);
    const json = await run([...args, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ apiVersion: 'v1', kind: 'List', items: objects(first.stdout) });
  });
});

describe('kubeairunway render: Kybernate kinds', () => {
  const kybernate = (kind: string, name: string, spec: unknown, status?: unknown) =>
    JSON.stringify({ apiVersion: 'kybernate.io/v1alpha1', kind, metadata: { name }, spec, ...(status ? { status } : {}) });
  const IMAGE = 'containerd.io/checkpoint/4f2a:1733227215';
  const completed = (extra: Record<string, unknown> = {}) =>
    kybernate('KybernateCheckpoint', 'my-gpu-checkpoint', { podName: 'gpu-inference', containerName: 'model', ...extra }, { phase: 'Completed', checkpointRef: IMAGE, nodeName: 'gpu-node-1' });
  const POD = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'gpu-inference', labels: { app: 'llm' } },
    spec: { nodeName: 'gpu-node-1', containers: [{ name: 'model', image: 'my-llm:v1' }] },
  });
  const owner = (kind: string, name: string) => [{ apiVersion: 'kybernate.io/v1alpha1', kind, name, controller: true, blockOwnerDeletion: true }];

  it('examples/kybernate-workload.yaml: the pod, from the template, named after the workload and owned by it', async () => {
    const result = await run(['render', '-f', 'examples/kybernate-workload.yaml']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(objects(result.stdout)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'llm-inference',
          namespace: 'default',
          labels: { app: 'llm-inference', 'kybernate.io/workload': 'llm-inference' },
          ownerReferences: owner('KybernateWorkload', 'llm-inference'),
        },
        spec: {
          containers: [{ name: 'model', image: 'my-llm:v1', ports: [{ containerPort: 8080 }], resources: { limits: { 'nvidia.com/gpu': '1' } } }],
          runtimeClassName: 'nvidia',
        },
      },
    ]);
  });

  it('examples/kybernate-checkpoint.yaml renders nothing, and says so on stderr', async () => {
    expect(await run(['render', '-f', 'examples/kybernate-checkpoint.yaml'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'examples/kybernate-checkpoint.yaml: KybernateCheckpoint default/my-gpu-checkpoint creates no objects: it checkpoints pod default/gpu-inference on its node; nothing to render\n',
    });
  });

  it('examples/kybernate-restore.yaml alone: the restore pod from what it names, and what was assumed on stderr', async () => {
    const result = await run(['render', '-f', 'examples/kybernate-restore.yaml']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'warning: examples/kybernate-restore.yaml: KybernateRestore default/my-gpu-restore: KybernateCheckpoint default/my-gpu-checkpoint is read in the cluster: rendered with its name in place of its checkpoint image and without its pod (pass the checkpoint, completed, and its pod with -f to render from them)\n',
    );
    expect(objects(result.stdout)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'gpu-inference-restored',
          namespace: 'default',
          labels: { 'kybernate.io/restore': 'my-gpu-restore' },
          annotations: { 'kybernate.io/restore-from': 'my-gpu-checkpoint' },
          ownerReferences: owner('KybernateRestore', 'my-gpu-restore'),
        },
        spec: {
          containers: [{ name: 'restored', image: 'my-gpu-checkpoint', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
          nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-2' },
        },
      },
    ]);
  });

  it('with the completed checkpoint and its pod: the checkpoint image, the pod\'s spec, the resources on the checkpointed container', async () => {
    const result = await run(['render', '-f', 'examples/kybernate-restore.yaml', '-f', 'c.yaml', '-f', 'p.yaml'], { 'c.yaml': completed(), 'p.yaml': POD });
    expect(result.code).toBe(0);
    // The checkpoint says it renders nothing; the Pod is read, not printed.
    expect(result.stderr).toBe('c.yaml: KybernateCheckpoint default/my-gpu-checkpoint creates no objects: it checkpoints pod default/gpu-inference on its node; nothing to render\n');
    const [pod] = objects(result.stdout);
    expect(objects(result.stdout)).toHaveLength(1);
    expect(pod!.metadata).toMatchObject({ name: 'gpu-inference-restored', annotations: { 'kybernate.io/restore-from': IMAGE } });
    expect(pod!.spec).toEqual({ containers: [{ name: 'model', image: 'my-llm:v1', resources: { limits: { 'nvidia.com/gpu': '1' } } }], nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-2' } });
  });

  it('without targetPod: <restore>-restored, pinned to the node whose containerd holds the checkpoint', async () => {
    const result = await run(['render', '-f', 'r.yaml', '-f', 'c.yaml', '-f', 'p.yaml'], { 'r.yaml': kybernate('KybernateRestore', 'back', { checkpointRef: 'my-gpu-checkpoint' }), 'c.yaml': completed(), 'p.yaml': POD });
    const [pod] = objects(result.stdout);
    expect(pod!.metadata.name).toBe('back-restored');
    expect(pod!.spec).toEqual({
      containers: [{ name: 'model', image: 'my-llm:v1' }],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-node-1'] }] }] } } },
    });
    // A checkpoint pushed to a registry can be restored anywhere.
    const anywhere = await run(['render', '-f', 'r.yaml', '-f', 'c.yaml'], {
      'r.yaml': kybernate('KybernateRestore', 'back', { checkpointRef: 'my-gpu-checkpoint' }),
      'c.yaml': completed({ storage: { type: 'registry', image: 'registry.example/cp:1' } }),
    });
    expect(objects(anywhere.stdout)[0]!.spec).toEqual({ containers: [{ name: 'model', image: IMAGE }] });
  });

  it('a checkpoint that has not completed: its name in place of the image, said so', async () => {
    const pending = kybernate('KybernateCheckpoint', 'my-gpu-checkpoint', { podName: 'gpu-inference' }, { phase: 'InProgress' });
    const result = await run(['render', '-f', 'examples/kybernate-restore.yaml', '-f', 'c.yaml', '-f', 'p.yaml'], { 'c.yaml': pending, 'p.yaml': POD });
    expect(result.stderr).toContain(
      'warning: examples/kybernate-restore.yaml: KybernateRestore default/my-gpu-restore: KybernateCheckpoint default/my-gpu-checkpoint has not completed (no status.checkpointRef): rendered with its name in place of its checkpoint image\n',
    );
    expect(objects(result.stdout)[0]!.metadata).toMatchObject({ annotations: { 'kybernate.io/restore-from': 'my-gpu-checkpoint' } });
  });

  it('a checkpointImage needs nothing else', async () => {
    const result = await run(['render', '-f', 'r.yaml'], { 'r.yaml': kybernate('KybernateRestore', 'r', { checkpointImage: IMAGE }) });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(objects(result.stdout)[0]).toMatchObject({ metadata: { name: 'r-restored', annotations: { 'kybernate.io/restore-from': IMAGE } }, spec: { containers: [{ name: 'restored', image: IMAGE }] } });
  });

  it('a Pod alone is not rendered', async () => {
    const result = await run(['render', '-f', 'p.yaml'], { 'p.yaml': POD });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: p.yaml holds Pod default/gpu-inference; render takes ModelDeployments');
  });

  it('an invalid object prints its field errors and nothing on stdout', async () => {
    const result = await run(['render', '-f', 'examples/kybernate-workload.yaml', '-f', 'r.yaml'], { 'r.yaml': kybernate('KybernateRestore', 'r', {}) });
    expect(result).toEqual({ code: 1, stdout: '', stderr: "r.yaml: KybernateRestore default/r cannot be rendered:\n  spec: Exactly one of 'checkpointRef' or 'checkpointImage' must be set\n" });
  });

  it('is deterministic, mixes with other kinds in input order, and the YAML parses back to the JSON rendering', async () => {
    const args = ['render', '-f', 'examples/kybernate-workload.yaml', '-f', 'examples/flame-cluster.yaml', '-f', 'examples/kybernate-checkpoint.yaml', '-f', 'examples/kybernate-restore.yaml'];
    const first = await run(args);
    expect((await run(args)).stdout).toBe(first.stdout);
    const rendered = objects(first.stdout);
    expect(rendered[0]!.metadata.name).toBe('llm-inference');
    expect(rendered.at(-1)!.metadata.name).toBe('gpu-inference-restored');
    const json = await run([...args, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ apiVersion: 'v1', kind: 'List', items: rendered });
  });
});
