import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluate } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkValue } from '../schema/check.ts';
import { stored } from '../schema/stored.ts';
import { disaggregatedSpec, gpuVllmSpec } from '../testing/fixtures.ts';
import { crdFiles as registeredCrdFiles } from '../../deploy/crd-files.ts';
import { modelDeploymentCrd } from './model-deployment-crd.ts';
import { modelDeploymentSpecSchema } from './model-deployment-schema.ts';
import type { ModelDeploymentSpec } from '../types.ts';
import type { CustomResourceDefinition, JSONSchemaProps } from './schema-types.ts';
import { crdToYaml } from './serialize.ts';

const CRD_DIR = join(import.meta.dirname, '..', '..', 'deploy', 'crds');

function committed(file: string): string {
  return readFileSync(join(CRD_DIR, file), 'utf8');
}

const SEED_MESSAGES = [
  'vLLM engine requires GPU (set resources.gpu.count > 0)',
  'SGLang engine requires GPU (set resources.gpu.count > 0)',
  'TensorRT-LLM engine requires GPU (set resources.gpu.count > 0)',
  'Cannot specify both resources.gpu and scaling.prefill/decode',
  'Disaggregated mode requires scaling.prefill and scaling.decode',
  'Disaggregated mode requires scaling.prefill.gpu.count',
  'Disaggregated mode requires scaling.decode.gpu.count',
  'engine.type is required',
  'model.id is required when source is huggingface',
];

/** Our rules beyond the seed's table (api/extended-rules.ts) that the CRD enforces too. */
const EXTENDED_MESSAGES = [
  'image is required when source is custom (the model is pre-loaded in the image; provider default images hold no model)',
  'scaling.replicas cannot change in disaggregated mode (kubectl scale sets it, but it only applies to aggregated mode): set scaling.prefill.replicas and scaling.decode.replicas instead',
  'scaling.prefill.replicas is 0 but scaling.decode.replicas is not: a disaggregated deployment serves only with at least one prefill and one decode worker (set both to 0 to scale it to zero)',
  'scaling.decode.replicas is 0 but scaling.prefill.replicas is not: a disaggregated deployment serves only with at least one prefill and one decode worker (set both to 0 to scale it to zero)',
];

/** Every CRD the kind modules register (kinds/index.ts), as `npm run crds` writes them. */
const crdFiles = registeredCrdFiles();

describe('generated CRDs', () => {
  it.each(crdFiles.map((f) => [f.file, f.crd] as const))('%s is up to date (run `npm run crds`)', (file, crd) => {
    expect(committed(file)).toBe(crdToYaml(crd));
  });

  const md = parse(committed('kubeairunway.ai_modeldeployments.yaml')) as CustomResourceDefinition;
  const mdVersion = md.spec.versions[0]!;
  const ipc = parse(committed('kubeairunway.ai_inferenceproviderconfigs.yaml')) as CustomResourceDefinition;

  it('ModelDeployment: namespaced, short name md, status and scale subresources', () => {
    expect(md.metadata.name).toBe('modeldeployments.kubeairunway.ai');
    expect(md.spec.scope).toBe('Namespaced');
    expect(md.spec.names.shortNames).toEqual(['md']);
    expect(mdVersion.subresources).toEqual({
      status: {},
      scale: { specReplicasPath: '.spec.scaling.replicas', statusReplicasPath: '.status.replicas.ready' },
    });
  });

  it('ModelDeployment printer columns: Provider, Engine, Phase, Ready, Age', () => {
    expect(mdVersion.additionalPrinterColumns?.map((c) => [c.name, c.jsonPath])).toEqual([
      ['Provider', '.status.provider.name'],
      ['Engine', '.spec.engine.type'],
      ['Phase', '.status.phase'],
      ['Ready', '.status.replicas.ready'],
      ['Age', '.metadata.creationTimestamp'],
    ]);
  });

  it("ModelDeployment CEL rules carry the seed messages word for word, in its table's order (the order they are reported in), then ours", () => {
    const rules = mdVersion.schema.openAPIV3Schema.properties?.spec?.['x-kubernetes-validations'] ?? [];
    const [customImage, scaleFixed, noPrefill, noDecode] = EXTENDED_MESSAGES;
    expect(rules.map((r) => r.message)).toEqual([...SEED_MESSAGES, customImage, noPrefill, noDecode, scaleFixed]);
  });

  it('InferenceProviderConfig publishes an override schema, kept as is (its shape is checked by api/)', () => {
    const overrideSchema = ipc.spec.versions[0]!.schema.openAPIV3Schema.properties?.spec?.properties?.overrideSchema;
    expect(overrideSchema).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('InferenceProviderConfig: cluster-scoped with status subresource', () => {
    expect(ipc.metadata.name).toBe('inferenceproviderconfigs.kubeairunway.ai');
    expect(ipc.spec.scope).toBe('Cluster');
    expect(ipc.spec.versions[0]?.subresources).toEqual({ status: {} });
  });

  const fc = parse(committed('flame.xflops.io_flameclusters.yaml')) as CustomResourceDefinition;
  const fcVersion = fc.spec.versions[0]!;

  it('FlameCluster: namespaced in flame.xflops.io, short name fc, category flame, status subresource', () => {
    expect(fc.metadata.name).toBe('flameclusters.flame.xflops.io');
    expect(fc.spec.scope).toBe('Namespaced');
    expect(fc.spec.names).toEqual({ kind: 'FlameCluster', listKind: 'FlameClusterList', plural: 'flameclusters', singular: 'flamecluster', shortNames: ['fc'], categories: ['flame'] });
    expect(fcVersion.name).toBe('v1alpha1');
    expect(fcVersion.subresources).toEqual({ status: {} });
  });

  it('FlameCluster printer columns: State, Ready Executors, Replicas, Age', () => {
    expect(fcVersion.additionalPrinterColumns?.map((c) => [c.name, c.type, c.jsonPath])).toEqual([
      ['State', 'string', '.status.state'],
      ['Ready Executors', 'integer', '.status.executorManager.ready'],
      ['Replicas', 'integer', '.spec.executorManager.replicas'],
      ['Age', 'date', '.metadata.creationTimestamp'],
    ]);
  });

  const asya = parse(committed('asya.sh_asyncactors.yaml')) as CustomResourceDefinition;
  const asyaVersion = asya.spec.versions[0]!;

  it('AsyncActor: namespaced in asya.sh, short names asya and asyas, status subresource', () => {
    expect(asya.metadata.name).toBe('asyncactors.asya.sh');
    expect(asya.spec.scope).toBe('Namespaced');
    expect(asya.spec.names).toEqual({ kind: 'AsyncActor', listKind: 'AsyncActorList', plural: 'asyncactors', singular: 'asyncactor', shortNames: ['asya', 'asyas'], categories: ['asya'] });
    expect(asyaVersion.name).toBe('v1alpha1');
    expect(asyaVersion.subresources).toEqual({ status: {} });
  });

  it('AsyncActor printer columns: Mode, Target, Ready, Status, Age', () => {
    expect(asyaVersion.additionalPrinterColumns?.map((c) => [c.name, c.type, c.jsonPath])).toEqual([
      ['Mode', 'string', '.status.mode'],
      ['Target', 'string', '.status.resolvedTarget'],
      ['Ready', 'integer', '.status.readyReplicas'],
      ['Status', 'string', '.status.status'],
      ['Age', 'date', '.metadata.creationTimestamp'],
    ]);
  });

  it("AsyncActor CEL rules carry the seed's message word for word", () => {
    const rules = asyaVersion.schema.openAPIV3Schema.properties?.spec?.['x-kubernetes-validations'] ?? [];
    expect(rules[0]).toEqual({
      rule: '(has(self.workload) && !has(self.workloadRef)) || (!has(self.workload) && has(self.workloadRef))',
      message: "Exactly one of 'workload' or 'workloadRef' must be set",
      reason: 'FieldValueInvalid',
    });
  });

  describe.each(crdFiles.map((f) => [f.file, f.crd] as const))('%s is a structural schema', (_file, crd) => {
    const nodes = [...walk(crd.spec.versions[0]!.schema.openAPIV3Schema, '')];

    it('every node has a type, but int-or-string quantities (as structural schemas require)', () => {
      const intOrString = (s: JSONSchemaProps) => (s as { 'x-kubernetes-int-or-string'?: boolean })['x-kubernetes-int-or-string'] === true;
      expect(nodes.filter(([, s]) => s.type === undefined && !intOrString(s)).map(([p]) => p)).toEqual([]);
    });

    it('free-form objects preserve unknown fields; list-map keys are required', () => {
      for (const [path, s] of nodes) {
        if (s.type === 'object' && !s.properties && !s.additionalProperties && path !== '.metadata') {
          expect(s['x-kubernetes-preserve-unknown-fields'], path).toBe(true);
        }
        for (const key of s['x-kubernetes-list-map-keys'] ?? []) expect(s.items?.required, path).toContain(key);
      }
    });

    it('every default satisfies its own schema, CEL rules included (the API server rejects the CRD otherwise)', () => {
      for (const [path, s] of nodes) {
        if (s.default === undefined) continue;
        const problems: string[] = [];
        checkValue(s, s.default, path, (at, problem) => problems.push(`${at} ${problem}`));
        expect(problems, path).toEqual([]);
        for (const rule of s['x-kubernetes-validations'] ?? []) {
          expect(evaluate(rule.rule, { self: stored(s.default, s) }), `${path}: ${rule.rule}`).toBe(true);
        }
      }
    });

    it('every string a CEL rule compares is bounded (keeps the estimated CEL cost low)', () => {
      const ruleText = nodes.flatMap(([, s]) => (s['x-kubernetes-validations'] ?? []).map((r) => r.rule)).join('\n');
      for (const [path, s] of nodes) {
        const name = path.split('.').at(-1)!;
        if (s.type === 'string' && new RegExp(`\\.${name} (==|!=)`).test(ruleText) && path.startsWith('.spec')) {
          expect(s.maxLength, path).toBeDefined();
        }
      }
    });
  });
});

describe('the kubectl scale rule (a transition rule: spec before and after an update)', () => {
  const rules = modelDeploymentSpecSchema['x-kubernetes-validations'] ?? [];
  const failures = (oldSpec: unknown, spec: unknown): string[] =>
    rules.filter((r) => evaluate(r.rule, { self: spec, oldSelf: oldSpec }) !== true).map((r) => r.message);
  const scaled = (spec: ModelDeploymentSpec, replicas: number): ModelDeploymentSpec => ({ ...spec, scaling: { ...spec.scaling, replicas } });

  it('refuses a change of scaling.replicas on a disaggregated deployment, an omitted value counting as 1', () => {
    const before = stored(disaggregatedSpec(), modelDeploymentSpecSchema) as ModelDeploymentSpec;
    expect(failures(before, scaled(before, 3))).toEqual([EXTENDED_MESSAGES[1]]);
    expect(failures({ ...before, scaling: { prefill: before.scaling?.prefill, decode: before.scaling?.decode } }, before)).toEqual([]);
  });

  it('lets aggregated deployments scale, and a change of mode carry a new count', () => {
    const aggregated = stored(gpuVllmSpec(), modelDeploymentSpecSchema) as ModelDeploymentSpec;
    expect(failures(aggregated, scaled(aggregated, 3))).toEqual([]);
    const disaggregated = stored(disaggregatedSpec(), modelDeploymentSpecSchema) as ModelDeploymentSpec;
    expect(failures(aggregated, scaled(disaggregated, 3))).toEqual([]);
    expect(failures(disaggregated, scaled(aggregated, 3))).toEqual([]);
  });
});

function* walk(schema: JSONSchemaProps, path: string): Generator<[string, JSONSchemaProps]> {
  yield [path, schema];
  for (const [key, child] of Object.entries(schema.properties ?? {})) yield* walk(child, `${path}.${key}`);
  if (schema.items) yield* walk(schema.items, `${path}[]`);
  if (schema.additionalProperties) yield* walk(schema.additionalProperties, `${path}{}`);
}

it('the CRD object itself is the one serialized', () => {
  expect(parse(crdToYaml(modelDeploymentCrd))).toEqual(JSON.parse(JSON.stringify(modelDeploymentCrd)));
});
