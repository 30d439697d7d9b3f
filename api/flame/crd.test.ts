// The FlameCluster CRD and validateFlameCluster agree: whatever the API server would admit, the
// workflow accepts, and the reverse. The schema is evaluated offline the way the API server does it
// (api/testing/admission.ts: types, int-or-string, required, bounds, patterns, then the CEL rules).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flameClusterCrd } from '../crd/crds.ts';
import { admitted as isAdmitted, rootSchemaOf } from '../testing/admission.ts';
import { seedSpec } from './testing.ts';
import { validateFlameCluster } from './validate.ts';

type Json = Record<string, unknown>;

const root = rootSchemaOf(flameClusterCrd);
const admitted = (object: Json): boolean => isAdmitted(object, root);

function cluster(name: string, spec: unknown): Json {
  return { apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', metadata: { name }, spec };
}

function variant(change: (spec: Json) => void, name = 'my-flame'): Json {
  const spec = structuredClone(seedSpec()) as unknown as Json;
  change(spec);
  return cluster(name, spec);
}
const sm = (s: Json) => s.sessionManager as Json;
const em = (s: Json) => s.executorManager as Json;

const TABLE: [string, Json, boolean][] = [
  ["the seed's example", variant(() => {}), true],
  ['replicas 0', variant((s) => (em(s).replicas = 0)), true],
  ['replicas -1', variant((s) => (em(s).replicas = -1)), false],
  // The API server reads int64 exactly; validation (JavaScript) only up to 2^53 - 1, so the CRD stops there too.
  ['replicas 2^53 - 1', variant((s) => (em(s).replicas = Number.MAX_SAFE_INTEGER)), true],
  ['replicas 2^53', variant((s) => (em(s).replicas = 2 ** 53)), false],
  ['maxExecutors 2^53 - 1', variant((s) => (em(s).maxExecutors = Number.MAX_SAFE_INTEGER)), true],
  ['maxExecutors 2^62', variant((s) => (em(s).maxExecutors = 2 ** 62)), false],
  ['replicas 1.5', variant((s) => (em(s).replicas = 1.5)), false],
  ['replicas "3"', variant((s) => (em(s).replicas = '3')), false],
  ['no replicas', variant((s) => delete em(s).replicas), false],
  ['maxExecutors 1', variant((s) => (em(s).maxExecutors = 1)), true],
  ['maxExecutors 0', variant((s) => (em(s).maxExecutors = 0)), false],
  ['no maxExecutors', variant((s) => delete em(s).maxExecutors), true],
  ['no session manager image', variant((s) => delete sm(s).image), false],
  ['empty executor image', variant((s) => (em(s).image = '')), false],
  ['image with whitespace', variant((s) => (em(s).image = 'a b')), false],
  ['image null', variant((s) => (sm(s).image = null)), false],
  ['no executorManager', variant((s) => delete s.executorManager), false],
  ['sessionManager a string', variant((s) => (s.sessionManager = 'x')), false],
  ['no spec', cluster('my-flame', undefined), false],
  ['no objectCache', variant((s) => delete s.objectCache), true],
  ['objectCache a string', variant((s) => (s.objectCache = 'x')), false],
  ['slot a number', variant((s) => (sm(s).slot = 1)), false],
  ['shim null', variant((s) => (em(s).shim = null)), true],
  ['quantities', variant((s) => (em(s).resources = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2, 'nvidia.com/gpu': 1 } })), true],
  ['negative quantity string', variant((s) => (em(s).resources = { limits: { cpu: '-1' } })), false],
  ['negative quantity number', variant((s) => (em(s).resources = { limits: { cpu: -1 } })), false],
  ['fractional quantity number', variant((s) => (em(s).resources = { limits: { cpu: 0.5 } })), false],
  ['quantity "0.5"', variant((s) => (em(s).resources = { limits: { cpu: '0.5' } })), true],
  ['quantity "lots"', variant((s) => (sm(s).resources = { requests: { memory: 'lots' } })), false],
  ['quantity true', variant((s) => (sm(s).resources = { requests: { memory: true } })), false],
  ['quantity null', variant((s) => (sm(s).resources = { requests: { memory: null, cpu: '1' } })), true],
  ['resources a string', variant((s) => (sm(s).resources = '1 cpu')), false],
  ['unknown fields are pruned', variant((s) => ((s.extra = 1), (sm(s).resources = { claims: [] }))), true],
  ['name of 44 with 3 executors', variant(() => {}, 'a'.repeat(44)), true],
  ['name of 45 with 3 executors', variant(() => {}, 'a'.repeat(45)), false],
  ['name of 44 with 11 executors', variant((s) => (em(s).replicas = 11), 'a'.repeat(44)), false],
  ['name of 47 with no executors', variant((s) => (em(s).replicas = 0), 'a'.repeat(47)), true],
  ['name of 48 with no executors', variant((s) => (em(s).replicas = 0), 'a'.repeat(48)), false],
  ['name starting with a digit', variant(() => {}, '1flame'), false],
  ['name with a dot', variant(() => {}, 'flame.prod'), false],
  ['name with upper case', variant(() => {}, 'Flame'), false],
];

describe('the FlameCluster CRD and validateFlameCluster agree', () => {
  it.each(TABLE)('%s', (_name, object, expected) => {
    expect(admitted(object)).toBe(expected);
    expect(validateFlameCluster(object).valid).toBe(expected);
  });

  it('on specs built from good and bad parts', () => {
    const optional = (...values: unknown[]) => fc.constantFrom<unknown>(undefined, ...values);
    const quantities = optional({ cpu: '1' }, { cpu: 2, memory: '4Gi' }, { cpu: -1 }, { cpu: 0.5 }, { memory: 'lots' }, { cpu: null, memory: '1Gi' }, 'x');
    const resources = fc.oneof(optional('x', null), fc.record({ requests: quantities, limits: quantities }, { requiredKeys: [] }));
    const image = optional('img:1', '', ' img', 3, null);
    const text = optional('x', 1, null);
    const spec = fc.record(
      {
        sessionManager: fc.oneof(
          fc.constantFrom<unknown>(undefined, 'x'),
          fc.record({ image, resources, slot: text, policy: text, storage: text }, { requiredKeys: [] }),
        ),
        executorManager: fc.oneof(
          fc.constantFrom<unknown>(undefined, []),
          fc.record(
            { image, replicas: optional(0, 1, 3, 10, 11, -1, 1.5, '2', null, 2 ** 53), resources, shim: text, maxExecutors: optional(1, 10, 0, 2.5, '3', 2 ** 60) },
            { requiredKeys: [] },
          ),
        ),
        objectCache: fc.oneof(optional('x'), fc.record({ networkInterface: text, storage: text }, { requiredKeys: [] })),
      },
      { requiredKeys: [] },
    );
    const name = fc.constantFrom('my-flame', 'a'.repeat(43), 'a'.repeat(44), 'a'.repeat(47), 'a'.repeat(48), '9lives', 'x');
    fc.assert(
      fc.property(name, spec, (n, s) => {
        const object = JSON.parse(JSON.stringify(cluster(n, s))) as Json;
        expect(validateFlameCluster(object).valid).toBe(admitted(object));
      }),
      { numRuns: 1000 },
    );
  });
});
