import { describe, expect, it } from 'vitest';
import type { OverrideSchema } from './overrides.ts';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from './testing/fixtures.ts';
import type { ModelDeploymentSpec } from './types.ts';
import { validate } from './validate.ts';

// Messages are written out literally (not imported) so a changed text fails here.

function messages(spec: unknown, context = {}): string[] {
  return validate(spec, context).errors.map((e) => e.message);
}

describe('validate: the seed examples are valid', () => {
  it.each([
    ['Example 1', gpuVllmSpec()],
    ['Example 2', cpuLlamacppSpec()],
    ['Example 3', disaggregatedSpec()],
  ])('%s', (_name, spec) => {
    expect(validate(spec)).toEqual({ errors: [], warnings: [] });
  });
});

describe('validate: schema validation table (seed 001 §8, seed 000)', () => {
  it('vllm with gpu.count 0', () => {
    const spec = gpuVllmSpec();
    spec.resources = { gpu: { count: 0 } };
    expect(validate(spec).errors).toEqual([
      { field: 'spec.resources.gpu.count', message: 'vLLM engine requires GPU (set resources.gpu.count > 0)' },
    ]);
  });

  it('sglang with gpu.count 0', () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), engine: { type: 'sglang' }, resources: { gpu: { count: 0 } } };
    expect(messages(spec)).toEqual(['SGLang engine requires GPU (set resources.gpu.count > 0)']);
  });

  it('trtllm with gpu.count 0', () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), engine: { type: 'trtllm' }, resources: { gpu: { count: 0 } } };
    expect(messages(spec)).toEqual(['TensorRT-LLM engine requires GPU (set resources.gpu.count > 0)']);
  });

  it('an omitted GPU counts as gpu.count 0 (seed §4.4)', () => {
    const spec = gpuVllmSpec();
    delete spec.resources;
    expect(messages(spec)).toEqual(['vLLM engine requires GPU (set resources.gpu.count > 0)']);
  });

  it('llamacpp runs without a GPU', () => {
    expect(messages({ ...cpuLlamacppSpec(), resources: undefined })).toEqual([]);
  });

  it('disaggregated with spec.resources.gpu', () => {
    const spec: ModelDeploymentSpec = { ...disaggregatedSpec(), resources: { gpu: { count: 1 } } };
    expect(validate(spec).errors).toEqual([
      { field: 'spec.resources.gpu', message: 'Cannot specify both resources.gpu and scaling.prefill/decode' },
    ]);
  });

  it('disaggregated allows resources without a gpu', () => {
    expect(messages({ ...disaggregatedSpec(), resources: { memory: '8Gi' } })).toEqual([]);
  });

  it.each(['prefill', 'decode'] as const)('disaggregated without scaling.%s', (component) => {
    const spec = disaggregatedSpec();
    delete spec.scaling![component];
    expect(validate(spec).errors).toEqual([
      { field: 'spec.scaling', message: 'Disaggregated mode requires scaling.prefill and scaling.decode' },
    ]);
  });

  it('disaggregated without any scaling', () => {
    const spec = disaggregatedSpec();
    delete spec.scaling;
    expect(messages(spec)).toEqual(['Disaggregated mode requires scaling.prefill and scaling.decode']);
  });

  it('disaggregated without scaling.prefill.gpu.count', () => {
    const spec = disaggregatedSpec();
    delete spec.scaling!.prefill!.gpu;
    expect(validate(spec).errors).toEqual([
      { field: 'spec.scaling.prefill.gpu.count', message: 'Disaggregated mode requires scaling.prefill.gpu.count' },
    ]);
  });

  it('disaggregated without scaling.decode.gpu.count', () => {
    const spec = disaggregatedSpec();
    spec.scaling!.decode!.gpu = { type: 'amd.com/gpu' };
    expect(validate(spec).errors).toEqual([
      { field: 'spec.scaling.decode.gpu.count', message: 'Disaggregated mode requires scaling.decode.gpu.count' },
    ]);
  });

  it('a disaggregated gpu.count of 0 is no GPU count', () => {
    const spec = disaggregatedSpec();
    spec.scaling!.decode!.gpu = { count: 0 };
    expect(messages(spec)).toEqual(['Disaggregated mode requires scaling.decode.gpu.count']);
  });

  it('the GPU-engine rule does not apply in disaggregated mode', () => {
    expect(messages(disaggregatedSpec())).not.toContain('vLLM engine requires GPU (set resources.gpu.count > 0)');
  });

  it.each([
    ['engine omitted', undefined],
    ['engine.type omitted', { contextLength: 4096 }],
    ['engine.type empty', { type: '' }],
    ['engine.type null', { type: null }],
  ])('missing engine.type: %s', (_name, engine) => {
    const spec = { ...cpuLlamacppSpec(), engine } as unknown;
    expect(validate(spec).errors).toEqual([{ field: 'spec.engine.type', message: 'engine.type is required' }]);
  });

  it.each([
    ['source huggingface', { source: 'huggingface' }],
    ['source omitted (defaults to huggingface)', {}],
    ['empty id', { id: '' }],
  ])('missing model.id: %s', (_name, model) => {
    const spec = { ...cpuLlamacppSpec(), model } as unknown;
    expect(validate(spec).errors).toEqual([
      { field: 'spec.model.id', message: 'model.id is required when source is huggingface' },
    ]);
  });

  it('model omitted entirely', () => {
    const spec = cpuLlamacppSpec();
    delete spec.model;
    expect(messages(spec)).toEqual(['model.id is required when source is huggingface']);
  });

  it('custom source needs no model.id', () => {
    expect(validate({ ...cpuLlamacppSpec(), model: { source: 'custom' } })).toEqual({ errors: [], warnings: [] });
  });

  it('servedName with custom source is a warning', () => {
    const result = validate({ ...cpuLlamacppSpec(), model: { source: 'custom', servedName: 'gemma' } });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([{ field: 'spec.model.servedName', message: 'servedName is ignored for custom source' }]);
  });

  it('servedName with huggingface source is fine', () => {
    const spec = gpuVllmSpec();
    spec.model!.servedName = 'llama';
    expect(validate(spec).warnings).toEqual([]);
  });

  it('provider CRD not installed (explicit provider)', () => {
    expect(validate(disaggregatedSpec(), { installedProviderCRDs: ['kaito'] }).errors).toEqual([
      { field: 'spec.provider.name', message: "Provider 'dynamo' CRD not installed in cluster", awaits: 'ProviderCrd' },
    ]);
  });

  it('provider CRD not installed (selected provider)', () => {
    expect(messages(gpuVllmSpec(), { installedProviderCRDs: [], selectedProvider: 'kuberay' })).toEqual([
      "Provider 'kuberay' CRD not installed in cluster",
    ]);
  });

  it('provider CRD installed, or cluster unknown', () => {
    expect(messages(disaggregatedSpec(), { installedProviderCRDs: ['dynamo'] })).toEqual([]);
    expect(messages(disaggregatedSpec(), {})).toEqual([]);
  });

  it('reports every broken rule at once', () => {
    expect(messages({ serving: { mode: 'disaggregated' }, resources: { gpu: { count: 1 } } })).toEqual([
      'Cannot specify both resources.gpu and scaling.prefill/decode',
      'Disaggregated mode requires scaling.prefill and scaling.decode',
      'engine.type is required',
      'model.id is required when source is huggingface',
    ]);
  });
});

describe('validate: engine parameter warnings (seed 001 §15)', () => {
  it('contextLength is ignored for TensorRT-LLM', () => {
    const spec: ModelDeploymentSpec = { ...gpuVllmSpec(), engine: { type: 'trtllm', contextLength: 4096 } };
    const result = validate(spec);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.field)).toEqual(['spec.engine.contextLength']);
  });

  it('trustRemoteCode does not apply to llamacpp', () => {
    const spec: ModelDeploymentSpec = { ...cpuLlamacppSpec(), engine: { type: 'llamacpp', trustRemoteCode: true } };
    expect(validate(spec).warnings.map((w) => w.field)).toEqual(['spec.engine.trustRemoteCode']);
  });
});

describe('validate: wrong types are errors, never exceptions', () => {
  it('a missing spec is required', () => {
    expect(validate(undefined).errors).toEqual([{ field: 'spec', message: 'spec is required' }]);
  });

  it.each([null, undefined, 42, 'spec', [], [1, 2], true])('spec = %j', (spec) => {
    const result = validate(spec);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.field).toBe('spec');
  });

  it('an int32 field out of 32 bits is refused at the field, by the bound its schema states (the API server says it there too)', () => {
    const spec = { ...gpuVllmSpec(), engine: { type: 'vllm', contextLength: 3_000_000_000 } } as unknown;
    expect(validate(spec).errors).toEqual([{ field: 'spec.engine.contextLength', message: 'spec.engine.contextLength must be at most 2147483647, got 3000000000' }]);
    const fits = { ...gpuVllmSpec(), engine: { type: 'vllm', contextLength: 2 ** 31 - 1 } } as unknown;
    expect(validate(fits).errors).toEqual([]);
  });

  it('names the field and the expected type', () => {
    const spec = { ...gpuVllmSpec(), scaling: { replicas: 'two' } } as unknown;
    expect(validate(spec).errors).toEqual([{ field: 'spec.scaling.replicas', message: 'spec.scaling.replicas must be an integer, got string' }]);
  });

  it('enums, minimums and quantities', () => {
    const spec = {
      ...gpuVllmSpec(),
      engine: { type: 'tgi' },
      serving: { mode: 'sideways' },
      scaling: { replicas: -1 },
      resources: { gpu: { count: 1 }, memory: 'lots' },
    } as unknown;
    expect(messages(spec)).toEqual([
      'spec.engine.type must be one of vllm, sglang, trtllm, llamacpp, got "tgi"',
      'spec.resources.memory must be a Kubernetes quantity such as "32Gi" or "4", got "lots"',
      'spec.scaling.replicas must be at least 0, got -1',
      'spec.serving.mode must be one of aggregated, disaggregated, got "sideways"',
    ]);
  });

  it('a gpu.count of the wrong type is reported once', () => {
    const spec = { ...gpuVllmSpec(), resources: { gpu: { count: '1' } } } as unknown;
    expect(messages(spec)).toEqual(['spec.resources.gpu.count must be an integer, got string']);
  });

  it('engine args must be strings', () => {
    const spec = { ...gpuVllmSpec(), engine: { type: 'vllm', args: { 'gpu-memory-utilization': 0.9 } } } as unknown;
    expect(messages(spec)).toEqual(['spec.engine.args.gpu-memory-utilization must be a string, got number']);
  });

  it('unknown fields are warnings', () => {
    const spec = { ...gpuVllmSpec(), replicas: 3 } as unknown;
    const result = validate(spec);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([{ field: 'spec.replicas', message: "Unknown field 'spec.replicas' is not part of the schema", unknownField: true }]);
  });

  it('a null field counts as omitted', () => {
    const spec = { ...gpuVllmSpec(), image: null, env: null } as unknown;
    expect(validate(spec)).toEqual({ errors: [], warnings: [] });
  });
});

describe('validate: provider overrides', () => {
  const schema: OverrideSchema = {
    type: 'object',
    properties: {
      routerMode: { type: 'string', enum: ['kv', 'round-robin', 'none'] },
      frontend: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 } } },
    },
  };

  it('unknown keys warn, wrong types fail', () => {
    const spec = disaggregatedSpec();
    spec.provider!.overrides = { routerMode: 'kv', frontend: { replicsa: 2, replicas: 'two' } };
    const result = validate(spec, { overrideSchema: schema });
    expect(result.errors).toEqual([
      { field: 'spec.provider.overrides.frontend.replicas', message: 'spec.provider.overrides.frontend.replicas must be an integer, got string' },
    ]);
    expect(result.warnings).toEqual([
      {
        field: 'spec.provider.overrides.frontend.replicsa',
        message: "Unknown override key 'spec.provider.overrides.frontend.replicsa' is ignored",
      },
    ]);
  });

  it('overrides are not checked without a schema', () => {
    const spec = disaggregatedSpec();
    spec.provider!.overrides = { anything: [1, 2, 3] };
    expect(validate(spec)).toEqual({ errors: [], warnings: [] });
  });
});
