// What admission says about specs the API server cannot judge by itself: provider overrides (checked with
// the schema the provider publishes in its InferenceProviderConfig), a scale of a disaggregated
// deployment, a custom source without an image, a Secret reference that is not a name.

import { describe, expect, it } from 'vitest';
import type { InferenceProviderConfig } from '../api/types.ts';
import { DYNAMO_CONFIG } from '../providers/dynamo/config.ts';
import { KAITO_CONFIG } from '../providers/kaito/config.ts';
import type { AdmissionRequest } from './admission.ts';
import { validateRequest } from './review.ts';
import { validSpec } from './testing/seed-cases.ts';

const kind = { group: 'kubeairunway.ai', version: 'v1alpha1', kind: 'ModelDeployment' };
const installed = (config: InferenceProviderConfig): InferenceProviderConfig => ({ ...config, status: { upstreamCRDVersion: 'v1' } });
const configs = [installed(DYNAMO_CONFIG), installed(KAITO_CONFIG)];

function md(spec: unknown, status?: unknown): Record<string, unknown> {
  return { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: 'm', namespace: 'ns' }, spec, ...(status ? { status } : {}) };
}
const create = (spec: unknown): AdmissionRequest => ({ uid: 'c', kind, operation: 'CREATE', object: md(spec) });
const update = (oldSpec: unknown, spec: unknown, status?: unknown): AdmissionRequest => ({
  uid: 'u',
  kind,
  operation: 'UPDATE',
  object: md(spec, status),
  oldObject: md(oldSpec, status),
});

const gpuSpec = { model: { id: 'org/m' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
const P = 'spec.provider.overrides';

describe('overrides, with the schema the provider publishes', () => {
  it('an override of the wrong type is denied, naming its path and the type allowed', () => {
    const spec = { ...gpuSpec, provider: { name: 'dynamo', overrides: { routerMode: 'fastest', frontend: { replicas: 'two' } } } };
    expect(validateRequest(create(spec), { providerConfigs: configs })).toMatchObject({
      allowed: false,
      status: { message: `${P}.frontend.replicas must be an integer, got string; ${P}.routerMode must be one of kv, round-robin, none, got "fastest"` },
    });
  });

  it('an unknown key is admitted with a warning naming its full path (seed 001 §4.15)', () => {
    const spec = { ...gpuSpec, provider: { name: 'dynamo', overrides: { frontend: { replicsa: 2 } } } };
    expect(validateRequest(create(spec), { providerConfigs: configs })).toEqual({
      uid: 'c',
      allowed: true,
      warnings: [`Unknown override key '${P}.frontend.replicsa' is ignored`],
    });
  });

  it('KAITO publishes that it takes no overrides: every key is unknown', () => {
    const spec = { ...validSpec(), image: 'registry.example/llama:1', provider: { name: 'kaito', overrides: { routerMode: 'kv' } } };
    expect(validateRequest(create(spec), { providerConfigs: configs }).warnings).toEqual([`Unknown override key '${P}.routerMode' is ignored`]);
  });

  it('the provider selected earlier (status.provider.name) gives the schema on an update', () => {
    const spec = { ...gpuSpec, provider: { overrides: { frontend: { replicas: -1 } } } };
    const res = validateRequest(update(gpuSpec, spec, { provider: { name: 'dynamo' } }), { providerConfigs: configs });
    expect(res.status?.message).toBe(`${P}.frontend.replicas must be at least 0, got -1`);
  });

  it('are not checked while no provider is chosen, nor when the config publishes no schema or a malformed one', () => {
    const spec = { ...gpuSpec, provider: { overrides: { frontend: { replicas: 'two' } } } };
    expect(validateRequest(create(spec), { providerConfigs: configs }).allowed).toBe(true);

    const bare = installed({ metadata: { name: 'third' }, spec: { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true } } });
    const broken = installed({ ...bare, metadata: { name: 'broken' }, spec: { ...bare.spec, overrideSchema: { type: 'objekt' } as never } });
    for (const name of ['third', 'broken']) {
      const named = { ...spec, provider: { name, overrides: spec.provider.overrides } };
      expect(validateRequest(create(named), { providerConfigs: [bare, broken] }).allowed).toBe(true);
    }
  });
});

describe('kubectl scale of a disaggregated deployment', () => {
  const disaggregated = {
    model: { id: 'org/m' },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: { replicas: 1, prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 2, gpu: { count: 1 } } },
  };

  it('a change of scaling.replicas is denied with what to set instead', () => {
    const scaled = { ...disaggregated, scaling: { ...disaggregated.scaling, replicas: 3 } };
    expect(validateRequest(update(disaggregated, scaled)).status?.message).toBe(
      'scaling.replicas cannot change in disaggregated mode (kubectl scale sets it, but it only applies to aggregated mode): set scaling.prefill.replicas and scaling.decode.replicas instead',
    );
  });

  it('scaling the workers is admitted', () => {
    const scaled = { ...disaggregated, scaling: { ...disaggregated.scaling, decode: { replicas: 4, gpu: { count: 1 } } } };
    expect(validateRequest(update(disaggregated, scaled))).toEqual({ uid: 'u', allowed: true });
  });

  it('a create with a replica count that does nothing is admitted with a warning', () => {
    const spec = { ...disaggregated, scaling: { ...disaggregated.scaling, replicas: 3 } };
    expect(validateRequest(create(spec)).warnings).toEqual([
      'scaling.replicas is ignored in disaggregated mode: set scaling.prefill.replicas and scaling.decode.replicas instead',
    ]);
  });
});

describe('other faults a cluster would show only later', () => {
  it('custom source without an image', () => {
    const spec = { model: { source: 'custom' }, engine: { type: 'llamacpp' } };
    expect(validateRequest(create(spec)).status?.message).toBe(
      'image is required when source is custom (the model is pre-loaded in the image; provider default images hold no model)',
    );
  });

  it('a Secret reference that is not an object name', () => {
    const spec = { ...validSpec(), secrets: { huggingFaceToken: 'my_token' } };
    expect(validateRequest(create(spec)).status?.message).toMatch(/^spec\.secrets\.huggingFaceToken must be an object name \(.*\), got "my_token"$/);
  });

  it('a GPU count above the bound', () => {
    const spec = { ...gpuSpec, resources: { gpu: { count: 1_000_000_000 } } };
    expect(validateRequest(create(spec)).status?.message).toBe('spec.resources.gpu.count must be at most 128, got 1000000000');
  });
});
