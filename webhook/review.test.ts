import { describe, expect, it } from 'vitest';
import type { InferenceProviderConfig, ModelDeploymentSpec } from '../api/types.ts';
import type { AdmissionRequest, AdmissionResponse } from './admission.ts';
import { identityChangeWarning, mutateRequest, providerCrdWaitWarning, unsupportedIdentityChangeWarning, validateRequest } from './review.ts';
import { providerNotInstalled, SERVED_NAME_WARNING, seedCases, servedNameWithCustomSource, validSpec } from './testing/seed-cases.ts';

const kind = { group: 'kubeairunway.ai', version: 'v1alpha1', kind: 'ModelDeployment' };

function md(spec: unknown, status?: unknown): Record<string, unknown> {
  return { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: 'm', namespace: 'ns' }, spec, ...(status ? { status } : {}) };
}

function create(spec: unknown): AdmissionRequest {
  return { uid: 'u1', kind, operation: 'CREATE', namespace: 'ns', name: 'm', object: md(spec) };
}

function update(oldSpec: unknown, spec: unknown, status?: unknown): AdmissionRequest {
  return { uid: 'u2', kind, operation: 'UPDATE', namespace: 'ns', name: 'm', object: md(spec, status), oldObject: md(oldSpec, status) };
}

function ipc(name: string, opts: { installed?: boolean; engines?: string[]; modes?: ('aggregated' | 'disaggregated')[]; cpu?: boolean; gpu?: boolean } = {}): InferenceProviderConfig {
  return {
    metadata: { name },
    spec: { capabilities: { engines: opts.engines ?? ['vllm', 'llamacpp'], servingModes: opts.modes ?? ['aggregated'], cpuSupport: opts.cpu ?? true, gpuSupport: opts.gpu ?? true } },
    status: { upstreamCRDVersion: opts.installed === false ? '' : 'v1beta1' },
  };
}

function decodePatch(res: AdmissionResponse): unknown {
  return res.patch === undefined ? undefined : JSON.parse(Buffer.from(res.patch, 'base64').toString('utf8'));
}

describe('validateRequest: the seed table', () => {
  it.each(seedCases().map((c) => [c.rule, c] as const))('%s is denied with the seed message', (_rule, c) => {
    const res = validateRequest(create(c.spec));
    expect(res).toEqual({ uid: 'u1', allowed: false, status: { status: 'Failure', code: 403, reason: 'Forbidden', message: c.message } });
  });

  it('several broken rules come back in one message, in validation order', () => {
    const res = validateRequest(create({ model: {}, resources: { gpu: { count: 0 } } }));
    expect(res.status?.message).toBe('engine.type is required; model.id is required when source is huggingface');
  });

  it('servedName with custom source is admitted with the seed warning', () => {
    expect(validateRequest(create(servedNameWithCustomSource()))).toEqual({ uid: 'u1', allowed: true, warnings: [SERVED_NAME_WARNING] });
  });

  it('a valid spec is admitted without warnings', () => {
    expect(validateRequest(create(validSpec()))).toEqual({ uid: 'u1', allowed: true });
  });

  it('a missing spec is denied, never an exception', () => {
    const res = validateRequest({ uid: 'u', kind, operation: 'CREATE', object: { metadata: { name: 'x' } } });
    expect(res.allowed).toBe(false);
    expect(res.status?.message).toContain('spec');
  });
});

describe('validateRequest: provider CRD installed (from InferenceProviderConfig status)', () => {
  const { spec, message } = providerNotInstalled('kaito');

  it('no InferenceProviderConfig for the provider: denied as not registered (not as a missing CRD)', () => {
    expect(validateRequest(create(spec), { providerConfigs: [ipc('dynamo')] }).status?.message).toBe(
      "Provider 'kaito' is not registered: no InferenceProviderConfig named 'kaito' (registered: dynamo)",
    );
  });

  it('an InferenceProviderConfig whose upstreamCRDVersion is empty: admitted with the seed message as a warning (the deployment waits)', () => {
    const res = validateRequest(create(spec), { providerConfigs: [ipc('kaito', { installed: false })] });
    expect(res.allowed).toBe(true);
    expect(res.warnings).toEqual([providerCrdWaitWarning(message)]);
    expect(res.warnings?.[0]).toBe(`${message}: admitted; the deployment waits (Pending) until the CRD is installed`);
  });

  it('installed: admitted', () => {
    expect(validateRequest(create(spec), { providerConfigs: [ipc('kaito')] }).allowed).toBe(true);
  });

  it('configs unknown (the list failed): the check is skipped, as with the webhook down', () => {
    expect(validateRequest(create(spec), {}).allowed).toBe(true);
  });

  it('the provider selected earlier (status) counts on an update', () => {
    const res = validateRequest(update(validSpec(), { ...validSpec(), image: 'x' }, { provider: { name: 'kaito' } }), { providerConfigs: [ipc('kaito', { installed: false })] });
    expect(res.allowed).toBe(true);
    expect(res.warnings).toContain(providerCrdWaitWarning(message));
  });
});

describe('validateRequest: provider capabilities as warnings', () => {
  it('an engine the named provider does not list', () => {
    const spec: ModelDeploymentSpec = { model: { id: 'a/b' }, provider: { name: 'kaito' }, engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } };
    expect(validateRequest(create(spec), { providerConfigs: [ipc('kaito')] })).toEqual({
      uid: 'u1',
      allowed: true,
      warnings: ["Provider 'kaito' does not support sglang engine"],
    });
  });

  it('no provider named and none fits', () => {
    const spec = { ...validSpec(), serving: { mode: 'disaggregated' } } as ModelDeploymentSpec;
    spec.scaling = { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } };
    delete spec.resources;
    const res = validateRequest(create(spec), { providerConfigs: [ipc('kaito', { engines: ['vllm'] })] });
    expect(res.warnings).toEqual(['No compatible provider found for engine=llamacpp, gpu=true, mode=disaggregated']);
  });

  it('no warning about capabilities when the spec is already denied', () => {
    const spec: ModelDeploymentSpec = { model: { id: 'a/b' }, provider: { name: 'kaito' }, engine: { type: 'sglang' } };
    const res = validateRequest(create(spec), { providerConfigs: [ipc('kaito')] });
    expect(res.allowed).toBe(false);
    expect(res.warnings).toBeUndefined();
  });
});

describe('validateRequest: updates', () => {
  it('an identity change is admitted with the downtime warning (seed §4.11)', () => {
    const res = validateRequest(update(validSpec(), { ...validSpec(), model: { id: 'other/model' } }));
    expect(res).toEqual({ uid: 'u2', allowed: true, warnings: [identityChangeWarning(['model.id'])] });
  });

  it('an identity change to an engine the running provider does not support warns that nothing is recreated and the old resource keeps serving', () => {
    const before: ModelDeploymentSpec = { ...validSpec(), engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
    const after: ModelDeploymentSpec = { ...before, engine: { type: 'sglang' } };
    const status = { provider: { name: 'kaito' } };
    const res = validateRequest(update(before, after, status), { providerConfigs: [ipc('kaito', { engines: ['vllm'] })] });
    expect(res.allowed).toBe(true);
    expect(res.warnings).toEqual(["Provider 'kaito' does not support sglang engine", unsupportedIdentityChangeWarning(['engine.type'], 'kaito')]);
    expect(res.warnings?.join('\n')).not.toContain('deletes and recreates');
  });

  it('an identity change the running provider supports keeps the recreate warning', () => {
    const before: ModelDeploymentSpec = { ...validSpec(), engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };
    const after: ModelDeploymentSpec = { ...before, engine: { type: 'llamacpp' } };
    const res = validateRequest(update(before, after, { provider: { name: 'kaito' } }), { providerConfigs: [ipc('kaito', { engines: ['vllm', 'llamacpp'] })] });
    expect(res.warnings).toEqual([identityChangeWarning(['engine.type'])]);
  });

  it('a config change has no warning', () => {
    expect(validateRequest(update(validSpec(), { ...validSpec(), image: 'x:1' }))).toEqual({ uid: 'u2', allowed: true });
  });

  it('an update leaving an invalid spec unchanged is admitted (finalizer removal, labels)', () => {
    const bad = seedCases()[0]!.spec;
    expect(validateRequest(update(bad, structuredClone(bad))).allowed).toBe(true);
  });

  it('an update that keeps the spec invalid while changing it is denied', () => {
    const bad = seedCases()[0]!.spec;
    expect(validateRequest(update(bad, { ...bad, image: 'x:1' })).allowed).toBe(false);
  });
});

describe('validateRequest: never in the way', () => {
  const bad = seedCases()[0]!.spec;
  it.each([
    ['DELETE', { uid: 'd', kind, operation: 'DELETE', oldObject: md(bad) } as AdmissionRequest],
    ['status subresource', { ...update(bad, { ...bad, image: 'x' }), subResource: 'status' }],
    ['another kind', { ...create(bad), kind: { group: '', version: 'v1', kind: 'Pod' } }],
    ['no object', { uid: 'n', kind, operation: 'CREATE' } as AdmissionRequest],
  ])('%s is allowed untouched', (_name, req) => {
    expect(validateRequest(req)).toEqual({ uid: req.uid, allowed: true });
    expect(mutateRequest(req)).toEqual({ uid: req.uid, allowed: true });
  });
});

describe('mutateRequest', () => {
  it('returns the defaults as a JSON patch under /spec', () => {
    const res = mutateRequest(create({ model: { id: 'org/Model-7B' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }));
    expect(res.allowed).toBe(true);
    expect(res.patchType).toBe('JSONPatch');
    expect(decodePatch(res)).toEqual([
      { op: 'add', path: '/spec/model/source', value: 'huggingface' },
      { op: 'add', path: '/spec/engine/trustRemoteCode', value: false },
      { op: 'add', path: '/spec/resources/gpu/type', value: 'nvidia.com/gpu' },
      { op: 'add', path: '/spec/scaling', value: { replicas: 1 } },
      { op: 'add', path: '/spec/serving', value: { mode: 'aggregated' } },
    ]);
  });

  it('persists servedName only when asked', () => {
    const spec = { model: { id: 'org/Model-7B', source: 'huggingface' } };
    const without = decodePatch(mutateRequest(create(spec))) as { path: string }[];
    expect(without.map((op) => op.path)).not.toContain('/spec/model/servedName');
    const withDerived = decodePatch(mutateRequest(create(spec), { persistDerivedFields: true })) as { path: string; value: unknown }[];
    expect(withDerived).toContainEqual({ op: 'add', path: '/spec/model/servedName', value: 'Model-7B' });
  });

  it('a fully defaulted spec needs no patch', () => {
    const full = { model: { id: 'a/b', source: 'huggingface' }, engine: { type: 'llamacpp', trustRemoteCode: false }, serving: { mode: 'aggregated' }, scaling: { replicas: 1 } };
    expect(mutateRequest(create(full))).toEqual({ uid: 'u1', allowed: true });
  });

  it('never rewrites what the user wrote', () => {
    const spec = { model: { id: 'a/b', source: 'custom' }, engine: { type: 'llamacpp', trustRemoteCode: true }, serving: { mode: 'disaggregated' }, scaling: { replicas: 0 } };
    const ops = decodePatch(mutateRequest(create(spec))) as { op: string }[] | undefined;
    expect((ops ?? []).every((op) => op.op === 'add')).toBe(true);
  });

  it('a spec that is not an object is left for validation', () => {
    expect(mutateRequest(create('nonsense'))).toEqual({ uid: 'u1', allowed: true });
  });
});
