// Property-based tests of the provider contract: rendering is deterministic (byte-identical JSON, and
// independent of the key order of the input), never throws for specs that validate and are compatible,
// and status mapping never throws on any input.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PHASES } from '../api/constants.ts';
import { applyDefaults } from '../api/defaults.ts';
import { specArbitrary } from '../api/testing/arbitraries.ts';
import type { ModelDeployment, ModelDeploymentSpec } from '../api/types.ts';
import { validate } from '../api/validate.ts';
import type { ProviderDefinition } from './contract.ts';
import { builtinProviders, selectProvider } from './index.ts';
import { modelDeployment } from './testing/fixtures.ts';

const RUNS = 150;

function contextFor(provider: ProviderDefinition) {
  return { apiVersion: `${provider.resource.group}/${provider.resource.versions[0]}` };
}

/**
 * Nudges a generated spec towards what `provider` serves, so most samples validate and are compatible;
 * the property then keeps only those that really do.
 */
function towards(provider: ProviderDefinition, raw: ModelDeploymentSpec, pick: number): ModelDeploymentSpec {
  const spec = structuredClone(raw);
  const caps = provider.config.spec.capabilities ?? {};
  const engines = (caps.engines ?? ['vllm']) as Array<NonNullable<ModelDeploymentSpec['engine']>['type']>;
  spec.engine = { ...spec.engine, type: engines[pick % engines.length] };
  spec.model = { ...spec.model, id: spec.model?.id || 'meta-llama/Llama-3.1-8B-Instruct' };
  const modes = caps.servingModes ?? ['aggregated'];
  const mode = modes[Math.floor(pick / 2) % modes.length] ?? 'aggregated';
  spec.serving = { mode };
  if (mode === 'disaggregated') {
    if (spec.resources) delete spec.resources.gpu;
    spec.scaling = {
      ...spec.scaling,
      prefill: { ...spec.scaling?.prefill, gpu: { count: Math.max(1, spec.scaling?.prefill?.gpu?.count ?? 1) } },
      decode: { ...spec.scaling?.decode, gpu: { count: Math.max(1, spec.scaling?.decode?.gpu?.count ?? 1) } },
    };
  } else if (spec.engine.type !== 'llamacpp' || !caps.cpuSupport) {
    spec.resources = { ...spec.resources, gpu: { ...spec.resources?.gpu, count: Math.max(1, spec.resources?.gpu?.count ?? 1) } };
  }
  if (spec.engine.type === 'llamacpp') spec.image = spec.image ?? 'ghcr.io/example/runner:latest';
  if (provider.name === 'kaito' && spec.engine.type === 'vllm') spec.model.source = 'huggingface';
  if (provider.name !== 'dynamo' && spec.provider) delete spec.provider.overrides;
  if (provider.name === 'deployment') {
    // Its disaggregated mode is vLLM's, and a custom model is one it is given the path of.
    if (mode === 'disaggregated') spec.engine.type = 'vllm';
    if (spec.model.source === 'custom') spec.model.id = '/models/model.gguf';
  }
  return spec;
}

function acceptable(provider: ProviderDefinition, spec: ModelDeploymentSpec): boolean {
  const result = validate(applyDefaults(spec), { overrideSchema: provider.overrideSchema, selectedProvider: provider.name });
  return result.errors.length === 0 && provider.compatibility(modelDeployment('m', spec)).compatible;
}

/** The same value with every object's keys in a different order. */
function reorderKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reorderKeys(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const rotated = entries.length > 0 ? [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)].reverse() : entries;
  return Object.fromEntries(rotated.map(([k, v], i) => [k, reorderKeys(v, seed + i + 1)]));
}

const deploymentArbitrary = fc.record({
  name: fc.constantFrom('m', 'llama-8b', 'a'.repeat(70), 'x.y-z'),
  namespace: fc.constantFrom('default', 'team-a'),
  labels: fc.dictionary(fc.constantFrom('kubeairunway.ai/team', 'app', 'kubeairunway.ai/managed-by', 'kubeairunway.ai/tier'), fc.constantFrom('a', 'b'), {
    maxKeys: 3,
  }),
  spec: specArbitrary(),
  pick: fc.nat(7),
});

type DeploymentInput = typeof deploymentArbitrary extends fc.Arbitrary<infer T> ? T : never;

function build(provider: ProviderDefinition, input: DeploymentInput): ModelDeployment {
  return modelDeployment(input.name, towards(provider, input.spec, input.pick), { namespace: input.namespace, labels: input.labels });
}

describe.each(builtinProviders.map((p) => [p.name, p] as const))('%s: rendering properties', (_name, provider) => {
  it('never throws for valid, compatible specs, and renders owned, labelled objects in the same namespace', () => {
    let checked = 0;
    fc.assert(
      fc.property(deploymentArbitrary, (input) => {
        const md = build(provider, input);
        if (!acceptable(provider, md.spec)) return;
        checked++;
        const { objects, warnings } = provider.render(md, contextFor(provider));
        expect(objects.length).toBeGreaterThan(0);
        expect(objects[0]?.kind).toBe(provider.resource.kind);
        expect(warnings.every((w) => typeof w === 'string')).toBe(true);
        for (const object of objects) {
          expect(object.metadata.namespace).toBe(input.namespace);
          expect(object.metadata.labels['kubeairunway.ai/managed-by']).toBe('kubeairunway');
          expect(object.metadata.labels['kubeairunway.ai/model-deployment']).toMatch(/^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/);
          for (const key of Object.keys(object.metadata.labels)) expect(key.startsWith('kubeairunway.ai/')).toBe(true);
          expect(object.metadata.ownerReferences).toEqual([
            { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: input.name, uid: `uid-${input.name}`, controller: true, blockOwnerDeletion: true },
          ]);
        }
      }),
      { numRuns: RUNS },
    );
    // The nudging must keep the property meaningful.
    expect(checked).toBeGreaterThan(RUNS / 3);
  });

  it('is deterministic: byte-identical JSON for the same input and for any key order of the input', () => {
    fc.assert(
      fc.property(deploymentArbitrary, fc.nat(50), (input, seed) => {
        const md = build(provider, input);
        const first = JSON.stringify(provider.render(md, contextFor(provider)));
        expect(JSON.stringify(provider.render(structuredClone(md), contextFor(provider)))).toBe(first);
        expect(JSON.stringify(provider.render(reorderKeys(md, seed) as ModelDeployment, contextFor(provider)))).toBe(first);
      }),
      { numRuns: RUNS },
    );
  });

  it('does not throw even for specs that do not validate (garbage at every level)', () => {
    fc.assert(
      fc.property(specArbitrary({ garbage: true }), (spec) => {
        provider.render(modelDeployment('m', spec), contextFor(provider));
        provider.compatibility(modelDeployment('m', spec));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('status mapping properties', () => {
  const statusLike = fc.record(
    {
      metadata: fc.oneof(fc.record({ name: fc.string({ maxLength: 10 }) }), fc.anything()),
      spec: fc.anything(),
      resource: fc.oneof(fc.record({ count: fc.oneof(fc.integer(), fc.string()) }), fc.anything()),
      status: fc.oneof(
        fc.record(
          {
            state: fc.oneof(fc.constantFrom('successful', 'deploying', 'failed', 'pending'), fc.anything()),
            serviceStatus: fc.oneof(fc.constantFrom('Running', 'Pending', 'Failed', 'FailedToX'), fc.anything()),
            message: fc.anything(),
            conditions: fc.oneof(
              fc.array(
                fc.record({
                  type: fc.constantFrom('WorkspaceSucceeded', 'InferenceReady', 'ResourceReady', 'Ready'),
                  status: fc.constantFrom('True', 'False', 'Unknown'),
                  reason: fc.oneof(fc.string(), fc.anything()),
                  message: fc.oneof(fc.string(), fc.anything()),
                }),
              ),
              fc.anything(),
            ),
            services: fc.anything(),
            activeServiceStatus: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  );

  it.each(builtinProviders.map((p) => [p.name, p] as const))('%s: mapStatus never throws and always yields a phase and a Ready condition', (_name, provider) => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), statusLike), (upstream) => {
        const status = provider.mapStatus(upstream);
        expect(PHASES).toContain(status.phase);
        expect(status.conditions).toHaveLength(1);
        expect(status.conditions[0]?.type).toBe('Ready');
        expect(Number.isInteger(status.replicas.desired)).toBe(true);
        expect(Number.isInteger(status.replicas.ready)).toBe(true);
        expect(JSON.parse(JSON.stringify(status))).toEqual(status);
      }),
      { numRuns: 300 },
    );
  });
});

describe('selection properties', () => {
  it('never throws, and selects at most one provider with every other one explained', () => {
    const configs = builtinProviders.map((p) => ({ ...p.config, status: { ready: true } }));
    fc.assert(
      fc.property(specArbitrary({ garbage: true }), fc.boolean(), (spec, selectorEnabled) => {
        const result = selectProvider(modelDeployment('m', spec), configs, { selectorEnabled });
        expect(result.selected === undefined).toBe(result.error !== undefined);
        if (result.selected && result.rejected.length > 0) {
          expect(result.rejected.map((r) => r.name).sort()).toEqual(configs.map((c) => c.metadata.name).filter((n) => n !== result.selected?.name).sort());
        }
      }),
      { numRuns: 300 },
    );
  });
});
