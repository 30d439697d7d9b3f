import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reachedFrom } from '../testing/pure-imports.ts';
import { seedCluster, seedSpec } from './testing.ts';
import { validateFlameCluster, type FlameValidation } from './validate.ts';

type Json = Record<string, unknown>;

/** The seed's example as a manifest, with `change` applied to a deep copy of its spec. */
function manifest(change: (spec: Json) => void = () => {}, name = 'my-flame'): Json {
  const spec = structuredClone(seedSpec()) as unknown as Json;
  change(spec);
  return { apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', metadata: { name }, spec };
}
const sm = (spec: Json) => spec.sessionManager as Json;
const em = (spec: Json) => spec.executorManager as Json;

function errorsOf(result: FlameValidation): string[] {
  if (result.valid) throw new Error('expected errors, got a valid cluster');
  return result.errors.map((e) => `${e.field}: ${e.message}`);
}

describe('validateFlameCluster: valid clusters', () => {
  it("accepts the seed's example and returns it unchanged", () => {
    const result = validateFlameCluster(seedCluster());
    expect(result).toEqual({ valid: true, cluster: seedCluster() });
  });

  it('accepts replicas 0 (scale to zero keeps the session manager)', () => {
    expect(validateFlameCluster(manifest((s) => (em(s).replicas = 0))).valid).toBe(true);
  });

  it('accepts the smallest spec: two images and a replica count', () => {
    const result = validateFlameCluster({
      apiVersion: 'flame.xflops.io/v1alpha1',
      kind: 'FlameCluster',
      metadata: { name: 'tiny' },
      spec: { sessionManager: { image: 's:1' }, executorManager: { image: 'e:1', replicas: 1 } },
    });
    expect(result).toEqual({
      valid: true,
      cluster: {
        apiVersion: 'flame.xflops.io/v1alpha1',
        kind: 'FlameCluster',
        metadata: { name: 'tiny' },
        spec: { sessionManager: { image: 's:1' }, executorManager: { image: 'e:1', replicas: 1 } },
      },
    });
  });

  it('accepts quantities as strings or non-negative integers', () => {
    const resources = { requests: { cpu: '500m', memory: '1Gi', 'nvidia.com/gpu': 1 }, limits: { cpu: 2, memory: '2.5Gi', 'ephemeral-storage': '1e9' } };
    const result = validateFlameCluster(manifest((s) => (em(s).resources = resources)));
    expect(result.valid && result.cluster.spec.executorManager.resources).toEqual(resources);
  });

  it('drops fields it does not know, as the API server prunes them, and treats a null field as absent', () => {
    const result = validateFlameCluster(
      manifest((s) => {
        s.extra = 1;
        sm(s).slot = null;
        sm(s).resources = { requests: { cpu: '1' }, limits: null, claims: [{ name: 'gpu' }] };
        em(s).typo = true;
      }),
    );
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.cluster.spec).not.toHaveProperty('extra');
    expect(result.cluster.spec.sessionManager).not.toHaveProperty('slot');
    expect(result.cluster.spec.sessionManager.resources).toEqual({ requests: { cpu: '1' } });
    expect(result.cluster.spec.executorManager).not.toHaveProperty('typo');
  });

  it('keeps the metadata the workflow needs and a well-formed status; drops a malformed status', () => {
    const status = {
      sessionManager: { ready: 1, endpoint: 'http://my-flame-session-manager:8080' },
      executorManager: { replicas: 3, ready: 2 },
      state: 'Running',
      configGeneration: 2,
      observedGeneration: 4,
      message: '2/3 executors ready',
    };
    const metadata = { name: 'my-flame', namespace: 'ns', uid: 'u-1', generation: 4, resourceVersion: '17', labels: { a: 'b' }, annotations: { c: 'd' }, deletionTimestamp: '2025-01-01T00:00:00Z', managedFields: [] };
    const ok = validateFlameCluster({ ...manifest(), metadata, status });
    expect(ok.valid && ok.cluster.metadata).toEqual({ name: 'my-flame', namespace: 'ns', uid: 'u-1', generation: 4, resourceVersion: '17', labels: { a: 'b' }, annotations: { c: 'd' }, deletionTimestamp: '2025-01-01T00:00:00Z' });
    expect(ok.valid && ok.cluster.status).toEqual(status);
    const broken = validateFlameCluster({ ...manifest(), status: { ...status, state: 'Sideways' } });
    expect(broken.valid && broken.cluster.status).toBeUndefined();
  });

  it('returns a copy: changing the input later does not change the cluster', () => {
    const input = manifest();
    const result = validateFlameCluster(input);
    em(input.spec as Json).replicas = 99;
    expect(result.valid && result.cluster.spec.executorManager.replicas).toBe(3);
  });
});

describe('validateFlameCluster: errors name the field', () => {
  it.each([
    ['negative replicas', manifest((s) => (em(s).replicas = -1)), ['spec.executorManager.replicas: must be at least 0, got -1']],
    ['fractional replicas', manifest((s) => (em(s).replicas = 1.5)), ['spec.executorManager.replicas: must be an integer, got number']],
    ['replicas as a string', manifest((s) => (em(s).replicas = '3')), ['spec.executorManager.replicas: must be an integer, got string']],
    ['missing replicas', manifest((s) => delete em(s).replicas), ['spec.executorManager.replicas: is required']],
    ['missing session manager image', manifest((s) => delete sm(s).image), ['spec.sessionManager.image: is required']],
    ['empty executor image', manifest((s) => (em(s).image = '')), ['spec.executorManager.image: must not be empty']],
    ['image of the wrong type', manifest((s) => (sm(s).image = 7)), ['spec.sessionManager.image: must be a string, got integer']],
    ['image with a space', manifest((s) => (sm(s).image = 'flame :v1')), ['spec.sessionManager.image: must not contain whitespace, got "flame :v1"']],
    ['maxExecutors 0', manifest((s) => (em(s).maxExecutors = 0)), ['spec.executorManager.maxExecutors: must be at least 1, got 0']],
    ['maxExecutors as a string', manifest((s) => (em(s).maxExecutors = '10')), ['spec.executorManager.maxExecutors: must be an integer, got string']],
    ['slot of the wrong type', manifest((s) => (sm(s).slot = 1)), ['spec.sessionManager.slot: must be a string, got integer']],
    ['objectCache not an object', manifest((s) => (s.objectCache = 'eth0')), ['spec.objectCache: must be an object, got string']],
    ['storage of the wrong type', manifest((s) => ((s.objectCache as Json).storage = ['a'])), ['spec.objectCache.storage: must be a string, got list']],
    ['sessionManager missing', manifest((s) => delete s.sessionManager), ['spec.sessionManager: is required']],
    ['executorManager a list', manifest((s) => (s.executorManager = [])), ['spec.executorManager: must be an object, got list']],
    ['resources not an object', manifest((s) => (em(s).resources = '2 cpus')), ['spec.executorManager.resources: must be an object with requests and/or limits, got string']],
    ['requests not a map', manifest((s) => (em(s).resources = { requests: ['cpu'] })), ['spec.executorManager.resources.requests: must be a map of resource names to quantities, got list']],
    [
      'bad quantities',
      manifest((s) => (sm(s).resources = { limits: { cpu: '-1', memory: 'lots', gpu: 0.5, x: -2, y: true } })),
      [
        'spec.sessionManager.resources.limits.cpu: must be a non-negative quantity such as "500m", "2Gi" or 4, got "-1"',
        'spec.sessionManager.resources.limits.gpu: must be a non-negative quantity such as "500m", "2Gi" or 4, got 0.5',
        'spec.sessionManager.resources.limits.memory: must be a non-negative quantity such as "500m", "2Gi" or 4, got "lots"',
        'spec.sessionManager.resources.limits.x: must be a non-negative quantity such as "500m", "2Gi" or 4, got -2',
        'spec.sessionManager.resources.limits.y: must be a non-negative quantity such as "500m", "2Gi" or 4, got true',
      ],
    ],
  ])('%s', (_name, input, expected) => {
    expect(errorsOf(validateFlameCluster(input))).toEqual(expected);
  });

  it('reports every problem at once, in field order, and sums them up in message', () => {
    const result = validateFlameCluster(
      manifest((s) => {
        delete sm(s).image;
        em(s).replicas = -1;
        em(s).maxExecutors = 0;
      }),
    );
    expect(result).toEqual({
      valid: false,
      errors: [
        { field: 'spec.sessionManager.image', message: 'is required' },
        { field: 'spec.executorManager.replicas', message: 'must be at least 0, got -1' },
        { field: 'spec.executorManager.maxExecutors', message: 'must be at least 1, got 0' },
      ],
      message: 'spec.sessionManager.image: is required; spec.executorManager.replicas: must be at least 0, got -1; spec.executorManager.maxExecutors: must be at least 1, got 0',
    });
  });

  it('the envelope: apiVersion, kind, metadata.name, spec', () => {
    expect(errorsOf(validateFlameCluster({ apiVersion: 'flame.xflops.io/v1', kind: 'Flame', spec: seedSpec() }))).toEqual([
      'apiVersion: must be flame.xflops.io/v1alpha1, got "flame.xflops.io/v1"',
      'kind: must be FlameCluster, got "Flame"',
      'metadata.name: is required',
    ]);
    expect(errorsOf(validateFlameCluster({ ...manifest(), spec: undefined }))).toEqual(['spec: is required']);
    expect(errorsOf(validateFlameCluster({ ...manifest(), spec: 'x' }))).toEqual(['spec: must be an object, got string']);
    expect(errorsOf(validateFlameCluster('FlameCluster'))).toEqual(['object: must be a FlameCluster object, got string']);
    expect(errorsOf(validateFlameCluster(null))).toEqual(['object: must be a FlameCluster object, got null']);
  });

  it('names must be DNS-1035 labels, since they prefix Service names', () => {
    for (const name of ['1flame', 'My-Flame', 'flame-', 'flame.prod']) {
      expect(errorsOf(validateFlameCluster(manifest(() => {}, name)))).toEqual([
        `metadata.name: must be a DNS-1035 label (lower-case letters, digits and '-', starting with a letter and ending with a letter or digit), since it prefixes the Service names; got ${JSON.stringify(name)}`,
      ]);
    }
  });

  describe('names short enough for the longest pod name to be a DNS label', () => {
    // "-executor-manager-2" is 19 characters: 44 + 19 = 63.
    it('44 characters with 3 executors is the limit', () => {
      expect(validateFlameCluster(manifest(() => {}, 'a'.repeat(44))).valid).toBe(true);
      expect(errorsOf(validateFlameCluster(manifest(() => {}, 'a'.repeat(45))))).toEqual([
        `metadata.name: is too long: with 3 executors the pod "${'a'.repeat(45)}-executor-manager-2" would have 64 characters, over the 63 allowed (pod names become hostnames, which must be DNS labels); use at most 44 characters`,
      ]);
    });

    it('the limit shrinks as the last index gets another digit', () => {
      expect(validateFlameCluster(manifest((s) => (em(s).replicas = 10), 'a'.repeat(44))).valid).toBe(true);
      expect(errorsOf(validateFlameCluster(manifest((s) => (em(s).replicas = 11), 'a'.repeat(44))))[0]).toContain('use at most 43 characters');
    });

    it('without executors the session manager pod is the longest (47 characters of name)', () => {
      expect(validateFlameCluster(manifest((s) => (em(s).replicas = 0), 'b'.repeat(47))).valid).toBe(true);
      expect(errorsOf(validateFlameCluster(manifest((s) => (em(s).replicas = 0), 'b'.repeat(48))))).toEqual([
        `metadata.name: is too long: the session manager pod "${'b'.repeat(48)}-session-manager" would have 64 characters, over the 63 allowed (pod names become hostnames, which must be DNS labels); use at most 47 characters`,
      ]);
    });
  });

  it('is deterministic: the same input gives the same answer', () => {
    const input = manifest((s) => (em(s).replicas = -3));
    expect(validateFlameCluster(input)).toEqual(validateFlameCluster(structuredClone(input)));
  });
});

describe('validate.ts is pure', () => {
  const reached = reachedFrom(join(import.meta.dirname, 'validate.ts'), join(import.meta.dirname, '..', '..'));

  it('reaches only files of api/ and the CEL library, no Node module', () => {
    expect([...reached.files.keys()].every((f) => f.startsWith('api/'))).toBe(true);
    expect([...reached.packages]).toEqual(['@marcbachmann/cel-js']);
  });

  it('reads no clock and draws no random numbers', () => {
    expect([...reached.files.values()].join('\n')).not.toMatch(/\bDate\b|Math\.random|performance\.|process\./);
  });
});
