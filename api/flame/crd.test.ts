// What the FlameCluster declaration admits: the validator interprets the very schema the CRD is
// serialized from (api/crd/flame-cluster-schema.ts), so one table states what both accept; the real API
// server's answers on the generated CRD are test/crd/api-server-validation.test.ts's.

import { describe, expect, it } from 'vitest';
import { seedSpec } from './testing.ts';
import { validateFlameCluster } from './validate.ts';

type Json = Record<string, unknown>;

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
  // A null entry of a map is refused, as ModelDeployment's always were (the API server would drop it).
  ['quantity null', variant((s) => (sm(s).resources = { requests: { memory: null, cpu: '1' } })), false],
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

describe('what a FlameCluster may be', () => {
  it.each(TABLE)('%s', (_name, object, expected) => {
    expect(validateFlameCluster(object).valid).toBe(expected);
  });
});
