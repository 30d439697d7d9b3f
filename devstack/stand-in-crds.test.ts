import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gpuVllmSpec } from '../api/testing/fixtures.ts';
import type { AnyObject } from '../kube/custom-objects.ts';
import { checkAgainstSchema, schemaOfVersion, type OpenApiSchema } from '../kube/schema-check.ts';
import { dynamoProvider } from '../providers/dynamo/index.ts';
import { kaitoProvider } from '../providers/kaito/index.ts';
import { example1, example2, example3, modelDeployment, withEverything } from '../providers/testing/fixtures.ts';
import { cpuLlamacppSpec } from '../api/testing/fixtures.ts';
import { readCrdFiles } from './crds.ts';
import { hasUpstreamCrds, loadUpstreamCrd, upstreamCrdsDir, type UpstreamCrd } from './upstream-crds.ts';
import { dynamoGraphDeployment, kaitoWorkspace } from './simulators/scripts.ts';

// The strict stand-ins in examples/upstream-crds/ (KAITO Workspace, Dynamo DynamoGraphDeployment) are
// what `npm run dev` installs when the upstream files are not at hand. They must (1) take everything we
// render and every status the simulators write, and (2) declare nothing upstream does not, in the same
// types, keeping nothing unknown where upstream does not: then an object refused upstream is refused
// here too, and one accepted here is accepted upstream.
const root = resolve(import.meta.dirname, '..');
const standIn = (file: string) => readCrdFiles([resolve(root, 'examples/upstream-crds', file)])[0]!;
const dynamo = standIn('dynamo-graphdeployment.yaml');
const kaito = standIn('kaito-workspace.yaml');
const served = (crd: AnyObject) => (crd.spec as { versions: { name: string; served: boolean; storage: boolean }[] }).versions;

function rendered(md: Parameters<typeof dynamoProvider.render>[0], provider: typeof dynamoProvider, apiVersion: string): AnyObject {
  return provider.render(md, { apiVersion }).objects[0] as unknown as AnyObject;
}

describe('strict stand-in CRDs', () => {
  it('Dynamo: as upstream, v1beta1 served and stored, v1alpha1 served; no conversion webhook (none runs here)', () => {
    expect(served(dynamo).map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1beta1', true, true],
      ['v1alpha1', true, false],
    ]);
    expect((dynamo.spec as { conversion?: unknown }).conversion).toBeUndefined();
  });

  const dynamoInputs = [example1(), example3(), modelDeployment('full', withEverything(gpuVllmSpec()))];
  for (const version of ['v1beta1', 'v1alpha1']) {
    it(`Dynamo ${version}: takes every rendering and every simulated status`, () => {
      const schema = schemaOfVersion(dynamo, version)!;
      for (const md of dynamoInputs) {
        const obj = rendered(md, dynamoProvider, `nvidia.com/${version}`);
        expect(checkAgainstSchema(obj, schema).map((p) => p.message)).toEqual([]);
        for (const status of [dynamoGraphDeployment.progressing(obj), dynamoGraphDeployment.ready(obj), dynamoGraphDeployment.failed(obj, 'x')]) {
          expect(checkAgainstSchema({ ...obj, status }, schema).map((p) => p.message)).toEqual([]);
        }
      }
    });
  }

  it("Dynamo: refuses the seed's router-mode key and a status.message", () => {
    const obj = rendered(example1(), dynamoProvider, 'nvidia.com/v1alpha1') as AnyObject & { spec: { services: Record<string, Record<string, unknown>> } };
    obj.spec.services.Frontend!['router-mode'] = 'kv';
    expect(checkAgainstSchema({ ...obj, status: { state: 'successful', message: 'x' } }, schemaOfVersion(dynamo, 'v1alpha1')!).map((p) => p.message)).toEqual([
      'spec.services.Frontend.router-mode: field not declared in schema',
      'status.message: field not declared in schema',
    ]);
  });

  it('KAITO v1beta1: takes every rendering and every simulated status; a `spec` is not declared', () => {
    const schema = schemaOfVersion(kaito, 'v1beta1')!;
    for (const md of [example2(), modelDeployment('full', withEverything(cpuLlamacppSpec())), modelDeployment('gpu', withEverything(gpuVllmSpec()))]) {
      const obj = rendered(md, kaitoProvider, 'kaito.sh/v1beta1');
      expect(checkAgainstSchema(obj, schema).map((p) => p.message)).toEqual([]);
      for (const status of [kaitoWorkspace.progressing(obj), kaitoWorkspace.ready(obj), kaitoWorkspace.failed(obj, 'x')]) {
        expect(checkAgainstSchema({ ...obj, status }, schema).map((p) => p.message)).toEqual([]);
      }
    }
    expect(checkAgainstSchema({ spec: {} }, schema).map((p) => p.message)).toEqual(['spec: field not declared in schema']);
  });
});

/** Every place `mine` declares something `theirs` does not, or declares it differently. */
function differences(mine: OpenApiSchema & Record<string, unknown>, theirs: (OpenApiSchema & Record<string, unknown>) | undefined, path: string): string[] {
  if (!theirs) return [`${path}: not declared upstream`];
  const out: string[] = [];
  const kind = (s: Record<string, unknown>) => (s['x-kubernetes-int-or-string'] ? 'int-or-string' : (s.type ?? 'any'));
  if (kind(mine) !== kind(theirs)) out.push(`${path}: ${String(kind(mine))} here, ${String(kind(theirs))} upstream`);
  if (mine['x-kubernetes-preserve-unknown-fields'] && !theirs['x-kubernetes-preserve-unknown-fields']) out.push(`${path}: kept unknown here only`);
  for (const key of ['x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'enum'] as const) {
    if (mine[key] !== undefined && JSON.stringify(mine[key]) !== JSON.stringify(theirs[key])) out.push(`${path}: ${key} ${JSON.stringify(mine[key])} here, ${JSON.stringify(theirs[key])} upstream`);
  }
  for (const [key, child] of Object.entries(mine.properties ?? {})) out.push(...differences(child as never, theirs.properties?.[key] as never, `${path}.${key}`));
  if (mine.items) out.push(...differences(mine.items as never, theirs.items as never, `${path}[]`));
  if (typeof mine.additionalProperties === 'object') out.push(...differences(mine.additionalProperties as never, (typeof theirs.additionalProperties === 'object' ? theirs.additionalProperties : undefined) as never, `${path}{}`));
  return out;
}

const needed: UpstreamCrd[] = ['kaitoWorkspaces', 'dynamoGraphDeployments'];
const present = hasUpstreamCrds(root, needed);
describe(`the stand-ins declare only what upstream declares, as upstream does${present ? '' : ` (skipped: no upstream CRD files in ${upstreamCrdsDir(root)})`}`, () => {
  const cases: [string, AnyObject, UpstreamCrd][] = [
    ['Dynamo', dynamo, 'dynamoGraphDeployments'],
    ['KAITO', kaito, 'kaitoWorkspaces'],
  ];
  for (const [label, mine, which] of cases) {
    it.skipIf(!present)(`${label}: every version, every field`, () => {
      const upstream = loadUpstreamCrd(root, which);
      for (const version of served(mine)) {
        const theirs = schemaOfVersion(upstream, version.name);
        expect(theirs, `${label} ${version.name} upstream`).toBeDefined();
        expect(differences(schemaOfVersion(mine, version.name) as never, theirs as never, version.name)).toEqual([]);
      }
    });
  }
});

describe('the comparison itself', () => {
  it('names a field upstream lacks, a different type, a different enum and a subtree kept unknown here only', () => {
    const upstream = { type: 'object', properties: { a: { type: 'string', enum: ['x'] }, b: { type: 'integer' }, c: { type: 'object' } } };
    const mine = { type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'] }, b: { type: 'string' }, c: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, d: { type: 'string' } } };
    expect(differences(mine as never, upstream as never, 'v')).toEqual([
      'v.a: enum ["x","y"] here, ["x"] upstream',
      'v.b: string here, integer upstream',
      'v.c: kept unknown here only',
      'v.d: not declared upstream',
    ]);
  });
});
