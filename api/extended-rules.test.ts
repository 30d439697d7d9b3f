import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from './testing/fixtures.ts';
import type { ModelDeploymentSpec } from './types.ts';
import { validate } from './validate.ts';

// Messages are written out literally (not imported) so a changed text fails here.

const CUSTOM_NEEDS_IMAGE =
  'image is required when source is custom (the model is pre-loaded in the image; provider default images hold no model)';
const REPLICAS_FIXED =
  'scaling.replicas cannot change in disaggregated mode (kubectl scale sets it, but it only applies to aggregated mode): set scaling.prefill.replicas and scaling.decode.replicas instead';
const REPLICAS_IGNORED = 'scaling.replicas is ignored in disaggregated mode: set scaling.prefill.replicas and scaling.decode.replicas instead';

describe('custom source needs an image', () => {
  it.each([
    ['omitted', undefined],
    ['empty', ''],
  ])('image %s is an error on spec.image', (_name, image) => {
    const spec = { ...cpuLlamacppSpec(), model: { source: 'custom' }, image } as ModelDeploymentSpec;
    expect(validate(spec).errors).toEqual([{ field: 'spec.image', message: CUSTOM_NEEDS_IMAGE }]);
  });

  it('with an image it is valid; a huggingface source needs none', () => {
    expect(validate({ ...cpuLlamacppSpec(), model: { source: 'custom' }, image: 'registry.example/m:1' }).errors).toEqual([]);
    expect(validate(gpuVllmSpec()).errors).toEqual([]);
  });
});

describe('GPU counts', () => {
  it('above the hard bound: an error naming the field and the bound', () => {
    const spec = { ...gpuVllmSpec(), resources: { gpu: { count: 1_000_000_000 } } };
    expect(validate(spec)).toEqual({
      errors: [{ field: 'spec.resources.gpu.count', message: 'spec.resources.gpu.count must be at most 128, got 1000000000' }],
      warnings: [],
    });
  });

  it('the bound applies to disaggregated workers too', () => {
    const spec = disaggregatedSpec();
    spec.scaling!.decode!.gpu = { count: 129 };
    expect(validate(spec).errors.map((e) => e.field)).toEqual(['spec.scaling.decode.gpu.count']);
  });

  it('more than a GPU server holds: admitted with a warning', () => {
    const spec = disaggregatedSpec();
    spec.scaling!.prefill!.gpu = { count: 32 };
    expect(validate(spec)).toEqual({
      errors: [],
      warnings: [
        {
          field: 'spec.scaling.prefill.gpu.count',
          message:
            "spec.scaling.prefill.gpu.count is 32: a replica's GPUs must all be on one node, and GPU servers have at most 16, so this schedules only on nodes that advertise shared or partitioned GPUs (time-slicing, MIG)",
        },
      ],
    });
  });

  it('16 or fewer: nothing to say', () => {
    expect(validate({ ...gpuVllmSpec(), resources: { gpu: { count: 16 } } })).toEqual({ errors: [], warnings: [] });
  });
});

describe('scaling.replicas in disaggregated mode', () => {
  const withReplicas = (spec: ModelDeploymentSpec, replicas: number | undefined): ModelDeploymentSpec => ({
    ...spec,
    scaling: { ...spec.scaling, replicas },
  });

  it('a change (what kubectl scale makes) is an error when the deployment was and stays disaggregated', () => {
    const before = withReplicas(disaggregatedSpec(), 1);
    expect(validate(withReplicas(before, 3), { previousSpec: before }).errors).toEqual([{ field: 'spec.scaling.replicas', message: REPLICAS_FIXED }]);
  });

  it('an omitted count equals the default 1', () => {
    const before = withReplicas(disaggregatedSpec(), undefined);
    expect(validate(withReplicas(before, 1), { previousSpec: before }).errors).toEqual([]);
  });

  it('switching mode may carry a new count (then only the warning)', () => {
    const aggregatedBefore = { ...gpuVllmSpec(), scaling: { replicas: 1 } };
    const result = validate(withReplicas(disaggregatedSpec(), 3), { previousSpec: aggregatedBefore });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([{ field: 'spec.scaling.replicas', message: REPLICAS_IGNORED }]);
  });

  it('a count other than 1 without a previous spec is a warning; aggregated deployments scale freely', () => {
    expect(validate(withReplicas(disaggregatedSpec(), 0)).warnings).toEqual([{ field: 'spec.scaling.replicas', message: REPLICAS_IGNORED }]);
    const aggregated = { ...gpuVllmSpec(), scaling: { replicas: 1 } };
    expect(validate({ ...aggregated, scaling: { replicas: 5 } }, { previousSpec: aggregated })).toEqual({ errors: [], warnings: [] });
  });
});

describe('references to other objects', () => {
  it.each(['HF_TOKEN', 'hf token', '-hf', 'hf.', ''])('huggingFaceToken %j is not a Secret name', (name) => {
    const result = validate({ ...gpuVllmSpec(), secrets: { huggingFaceToken: name } });
    expect(result.errors).toEqual([
      {
        field: 'spec.secrets.huggingFaceToken',
        message: `spec.secrets.huggingFaceToken must be an object name (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, such as "hf-token"), got ${JSON.stringify(name)}`,
      },
    ]);
  });

  it('a dotted Secret name is fine', () => {
    expect(validate({ ...gpuVllmSpec(), secrets: { huggingFaceToken: 'hf-token.v2' } }).errors).toEqual([]);
  });

  it('env secretKeyRef and configMapKeyRef names are checked; the rest of valueFrom passes through', () => {
    const spec = {
      ...gpuVllmSpec(),
      env: [
        { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'Bad_Name', key: 'token' } } },
        { name: 'CFG', valueFrom: { configMapKeyRef: { name: 'ok-config', key: 'k', optional: true } } },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
    } as unknown;
    expect(validate(spec).errors.map((e) => e.field)).toEqual(['spec.env[0].valueFrom.secretKeyRef.name']);
  });
});
