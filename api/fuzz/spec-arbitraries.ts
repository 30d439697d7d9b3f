// Generators of ModelDeployments for the fuzz tests, in three kinds:
//   valid      consistent specs across engines, serving modes and providers, with unicode, long and
//              odd-but-legal values everywhere the schema allows them;
//   nearValid  a valid spec with exactly one field off (wrong type, empty, huge, negative, unicode,
//              removed, null), recorded in `mutation`;
//   hostile    anything: arbitrary JSON and JS values, prototype keys (`__proto__`, `constructor`) as
//              own properties at any level, deep nesting, huge numbers, wrong types at the root.
// Every generated deployment has a name the API server accepts (a DNS-1123 subdomain) and labels it
// accepts, so what is judged is the spec.

import fc from 'fast-check';
import type { ModelDeploymentSpec } from '../types.ts';
import { MAX_REPLICAS } from '../limits.ts';

type Arb<T> = fc.Arbitrary<T>;
type Obj = Record<string, unknown>;

export type SpecKind = 'valid' | 'nearValid' | 'hostile';

export interface FuzzDeployment {
  kind: SpecKind;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: unknown;
  /** nearValid only: which field was changed and how. */
  mutation?: { path: string[]; how: string };
}

// ---------------------------------------------------------------- names and labels

const label63 = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
/** A Secret's or ConfigMap's key, as pods take it: those characters, and never '.' or a '..' start. */
const configKey = fc.stringMatching(/^[-._a-zA-Z0-9]{1,20}$/).filter((k) => k !== '.' && !k.startsWith('..'));

/** A DNS-1123 subdomain: what the API server accepts as a ModelDeployment name (up to 253, dots, leading digits). */
export const mdNameArb: Arb<string> = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z][-a-z0-9]{0,20}[a-z0-9]$/) },
  { weight: 2, arbitrary: fc.array(label63, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('.')) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('a', '0', '3b-chat', 'llama-3.1-8b', 'x'.repeat(63), 'a-'.repeat(40) + 'z', `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(61)}`),
  },
).filter((n) => n.length <= 253);

const qualifiedPart = fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/);
const dnsPrefix = fc.array(label63, { minLength: 1, maxLength: 3 }).map((p) => p.join('.')).filter((p) => p.length <= 253);
/** A valid label (or annotation) key. */
export const labelKeyArb: Arb<string> = fc.oneof(
  qualifiedPart,
  fc.tuple(dnsPrefix, qualifiedPart).map(([p, n]) => `${p}/${n}`),
  fc.constantFrom('kubernetes.io/arch', 'nvidia.com/gpu.product', 'team', 'app.kubernetes.io/name'),
);
export const labelValueArb: Arb<string> = fc.oneof(fc.constant(''), qualifiedPart);

/** Labels of the ModelDeployment itself; `kubeairunway.ai/` ones are copied to the provider resource. */
export const mdLabelsArb: Arb<Record<string, string>> = fc.dictionary(
  fc.oneof(labelKeyArb, qualifiedPart.map((n) => `kubeairunway.ai/${n}`)),
  labelValueArb,
  { maxKeys: 4, noNullPrototype: true },
);

// ---------------------------------------------------------------- values

/** Text with every kind of character: ASCII, unicode (astral planes, combining marks), quotes, shell metacharacters. */
const text = (maxLength = 24): Arb<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom("'; rm -rf / #", '$(id)', '`x`', '"', '\\', '\n', 'ä/ö', '🦙', 'a\u0000b', ' spaced ', '--flag', '{{ x }}', 'true', 'false', '0x1F'),
  );

const modelIdArb = fc.oneof(
  fc.constantFrom('meta-llama/Llama-3.1-8B-Instruct', 'google/gemma-3-1b-it-qat-q8_0-gguf', 'Qwen/Qwen3-8B', 'plain', 'a/b/c', '/leading', 'trailing/', 'org/Model.With.Dots'),
  text(40).filter((s) => s.length > 0),
  fc.string({ minLength: 200, maxLength: 256 }),
);

/** A positive Kubernetes quantity. */
const quantityArb = fc.oneof(
  fc.constantFrom('1', '4', '500m', '16Gi', '32Gi', '128Gi', '1.5', '0.5Gi', '1e3', '2E', '.5', '0'),
  fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom('', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'Ti')).map(([n, s]) => `${n}${s}`),
);

const gpuTypeArb = fc.constantFrom('nvidia.com/gpu', 'amd.com/gpu', 'gpu.intel.com/i915', 'example.com/mig-1g.5gb');

const argKeyArb = fc.oneof(
  fc.constantFrom('gpu-memory-utilization', 'quantization', 'max-num-seqs', 'enforce-eager', 'model', 'port', 'host', '--dtype', 'tensor_parallel_size', 'served-model-name'),
  text(12),
);
const argValueArb = fc.oneof(fc.constantFrom('', 'true', 'false', '0.9', 'awq', '1e400', '-1', '9007199254740993'), text(30));

const envArb = fc.array(
  fc.oneof(
    fc.record({ name: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,30}$/), value: text(40) }, { requiredKeys: ['name'], noNullPrototype: true }),
    fc.record({
      name: fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,20}$/),
      valueFrom: fc.oneof(
        fc.record({ secretKeyRef: fc.record({ name: label63, key: configKey }) }),
        fc.record({ configMapKeyRef: fc.record({ name: label63, key: configKey, optional: fc.boolean() }, { requiredKeys: ['name', 'key'], noNullPrototype: true }) }),
        fc.record({ fieldRef: fc.record({ fieldPath: fc.constantFrom('metadata.name', 'status.podIP') }) }),
      ),
    }),
  ),
  { maxLength: 3 },
).filter((env) => new Set(env.map((e) => e.name)).size === env.length);

const tolerationArb = fc.oneof(
  fc.record({ key: labelKeyArb, operator: fc.constant('Exists' as const), effect: fc.constantFrom('NoSchedule' as const, 'PreferNoSchedule' as const) }, { requiredKeys: ['key', 'operator'], noNullPrototype: true }),
  fc.record({ key: labelKeyArb, operator: fc.constant('Equal' as const), value: labelValueArb, effect: fc.constantFrom('NoSchedule' as const, 'NoExecute' as const) }, { requiredKeys: ['key'], noNullPrototype: true }),
  fc.record({ key: labelKeyArb, operator: fc.constant('Exists' as const), effect: fc.constant('NoExecute' as const), tolerationSeconds: fc.integer({ min: 0, max: 86_400 }) }),
  fc.constant({ operator: 'Exists' as const }),
);

const stringMap = (key: Arb<string>, value: Arb<string>, maxKeys = 4): Arb<Record<string, string>> => fc.dictionary(key, value, { maxKeys, noNullPrototype: true });

/** A claim's size: a quantity greater than zero (quantityArb also gives '0', which a claim cannot request). */
const sizeArb = fc.oneof(fc.constantFrom('1Gi', '200Gi', '1.5Ti', '500M', '1e12', '.5Gi'), fc.tuple(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('', 'Mi', 'Gi', 'Ti', 'G')).map(([n, u]) => `${n}${u}`));

/**
 * Valid spec.model.storage: up to three volumes of distinct names and paths, at most one model cache,
 * managed claims (size, with or without class and mode) and existing ones (claimName), in any order.
 */
const storageArb = fc
  .record(
    {
      cache: fc.record(
        { size: sizeArb, storageClassName: fc.constantFrom('', 'standard', 'fast.ssd'), accessMode: fc.constantFrom('ReadWriteOnce', 'ReadWriteMany', 'ReadOnlyMany', 'ReadWriteOncePod'), mountPath: fc.constantFrom('/cache', '/model-cache/hf'), readOnly: fc.boolean() },
        { requiredKeys: ['size'], noNullPrototype: true },
      ),
      compile: fc.record({ claimName: fc.oneof(label63, fc.constant('a.b-c')), readOnly: fc.boolean() }, { requiredKeys: ['claimName'], noNullPrototype: true }),
      data: fc.record({ mountPath: fc.constantFrom('/data', '/mnt/x y', '/model-cache'), claimName: label63, size: sizeArb }, { requiredKeys: ['mountPath'], noNullPrototype: true }),
      reversed: fc.boolean(),
    },
    { requiredKeys: ['reversed'], noNullPrototype: true },
  )
  .map(({ cache, compile, data, reversed }) => {
    const volumes: Obj[] = [];
    if (cache) volumes.push({ name: 'cache', purpose: 'modelCache', ...cache });
    if (compile) volumes.push({ name: 'compile', purpose: 'compilationCache', ...compile });
    // A custom volume is either an existing claim (claimName) or a managed one (size), never both.
    if (data) volumes.push({ name: 'data', purpose: 'custom', mountPath: cache && data.mountPath === '/model-cache' ? '/data' : data.mountPath, ...(data.size !== undefined ? { size: data.size } : { claimName: data.claimName ?? 'existing' }) });
    return { volumes: reversed ? volumes.reverse() : volumes };
  });

// ---------------------------------------------------------------- valid specs

export const PROVIDER_NAMES = ['kaito', 'dynamo', 'kuberay', 'deployment'] as const;

/** Overrides each built-in provider understands, with values of the right type (providers/*\/overrides.ts). */
const overridesArb = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      routerMode: fc.constantFrom('kv', 'round-robin', 'random'),
      frontend: fc.record({ replicas: fc.integer({ min: 0, max: 5 }), resources: fc.record({ cpu: quantityArb, memory: quantityArb }, { requiredKeys: [], noNullPrototype: true }) }, { requiredKeys: [], noNullPrototype: true }),
      head: fc.record({ cpu: quantityArb, memory: quantityArb, rayStartParams: stringMap(fc.constantFrom('num-cpus', 'dashboard-host'), fc.constantFrom('0', '0.0.0.0')) }, { requiredKeys: [], noNullPrototype: true }),
      startupTimeoutSeconds: fc.integer({ min: 30, max: 86_400 }),
      shmSize: quantityArb,
    },
    { requiredKeys: [], noNullPrototype: true },
  ),
);

export const validSpecArb: Arb<ModelDeploymentSpec> = fc
  .record({
    engine: fc.constantFrom('vllm', 'sglang', 'trtllm', 'llamacpp'),
    mode: fc.constantFrom('aggregated', 'aggregated', 'disaggregated', undefined),
    provider: fc.constantFrom(undefined, '', 'kaito', 'dynamo', 'kuberay', 'deployment'),
    source: fc.constantFrom('huggingface', 'huggingface', 'custom', undefined),
    id: modelIdArb,
    servedName: fc.option(text(30), { nil: undefined }),
    image: fc.option(fc.constantFrom('ghcr.io/example/runner:latest', 'vllm/vllm-openai:v0.8.0', 'registry.local:5000/a/b@sha256:' + 'a'.repeat(64)), { nil: undefined }),
    gpu: fc.integer({ min: 0, max: 128 }),
    gpuType: fc.option(gpuTypeArb, { nil: undefined }),
    prefill: fc.record({ replicas: fc.integer({ min: 0, max: 64 }), count: fc.integer({ min: 1, max: 128 }), memory: fc.option(quantityArb, { nil: undefined }) }),
    decode: fc.record({ replicas: fc.integer({ min: 0, max: 64 }), count: fc.integer({ min: 1, max: 128 }), cpu: fc.option(quantityArb, { nil: undefined }) }),
    replicas: fc.option(fc.integer({ min: 0, max: MAX_REPLICAS }), { nil: undefined }),
    contextLength: fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { nil: undefined }),
    trustRemoteCode: fc.option(fc.boolean(), { nil: undefined }),
    args: fc.option(stringMap(argKeyArb, argValueArb), { nil: undefined }),
    memory: fc.option(quantityArb, { nil: undefined }),
    cpu: fc.option(quantityArb, { nil: undefined }),
    env: fc.option(envArb, { nil: undefined }),
    podLabels: fc.option(stringMap(labelKeyArb, labelValueArb), { nil: undefined }),
    podAnnotations: fc.option(stringMap(labelKeyArb, text(40)), { nil: undefined }),
    token: fc.option(fc.oneof(label63, fc.constantFrom('hf-token', 'a.b-c')), { nil: undefined }),
    nodeSelector: fc.option(stringMap(labelKeyArb, labelValueArb), { nil: undefined }),
    tolerations: fc.option(fc.array(tolerationArb, { maxLength: 3 }), { nil: undefined }),
    overrides: overridesArb,
    storage: fc.option(storageArb, { nil: undefined, freq: 3 }),
    gateway: fc.option(
      fc.record(
        {
          enabled: fc.boolean(),
          modelName: fc.oneof(modelIdArb, text(30).filter((t) => t.length > 0)),
          httpRouteRef: label63,
          gatewayRef: fc.record({ name: fc.oneof(label63, fc.constant('inference')), namespace: fc.option(label63, { nil: undefined }) }, { requiredKeys: ['name'] }),
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
      { nil: undefined, freq: 3 },
    ),
  })
  .map((g) => {
    const disaggregated = g.mode === 'disaggregated';
    const needsGpu = g.engine !== 'llamacpp';
    const spec: Obj = {
      model: {
        ...(g.source !== undefined ? { source: g.source } : {}),
        id: g.id,
        ...(g.servedName !== undefined && g.source !== 'custom' ? { servedName: g.servedName } : {}),
        ...(g.storage !== undefined ? { storage: g.storage } : {}),
      },
      engine: {
        type: g.engine,
        ...(g.contextLength !== undefined ? { contextLength: g.contextLength } : {}),
        ...(g.trustRemoteCode !== undefined ? { trustRemoteCode: g.trustRemoteCode } : {}),
        ...(g.args !== undefined ? { args: g.args } : {}),
      },
    };
    if (g.mode !== undefined) spec.serving = { mode: g.mode };
    if (g.provider !== undefined || g.overrides !== undefined) spec.provider = { ...(g.provider !== undefined ? { name: g.provider } : {}), ...(g.overrides ? { overrides: g.overrides } : {}) };
    const gpuType = g.gpuType !== undefined ? { type: g.gpuType } : {};
    if (disaggregated) {
      spec.scaling = {
        ...(g.replicas !== undefined ? { replicas: 1 } : {}),
        // Both kinds of worker at zero (scaled to zero) or both running: one at zero alone is refused.
        prefill: { replicas: g.decode.replicas === 0 ? 0 : Math.max(1, g.prefill.replicas), gpu: { count: g.prefill.count, ...gpuType }, ...(g.prefill.memory ? { memory: g.prefill.memory } : {}) },
        decode: { replicas: g.decode.replicas, gpu: { count: g.decode.count }, ...(g.decode.cpu ? { cpu: g.decode.cpu } : {}) },
      };
      if (g.memory !== undefined || g.cpu !== undefined) spec.resources = { ...(g.memory ? { memory: g.memory } : {}), ...(g.cpu ? { cpu: g.cpu } : {}) };
    } else {
      if (g.replicas !== undefined) spec.scaling = { replicas: g.replicas };
      const count = needsGpu ? Math.max(1, g.gpu) : g.gpu;
      spec.resources = { gpu: { count, ...gpuType }, ...(g.memory ? { memory: g.memory } : {}), ...(g.cpu ? { cpu: g.cpu } : {}) };
    }
    if (g.source === 'custom' || g.engine === 'llamacpp') spec.image = g.image ?? 'ghcr.io/example/runner:latest';
    else if (g.image !== undefined) spec.image = g.image;
    if (g.env) spec.env = g.env;
    if (g.podLabels || g.podAnnotations) {
      spec.podTemplate = { metadata: { ...(g.podLabels ? { labels: g.podLabels } : {}), ...(g.podAnnotations ? { annotations: g.podAnnotations } : {}) } };
    }
    if (g.token !== undefined) spec.secrets = { huggingFaceToken: g.token };
    if (g.nodeSelector) spec.nodeSelector = g.nodeSelector;
    if (g.tolerations) spec.tolerations = g.tolerations;
    if (g.gateway) spec.gateway = g.gateway;
    return plainCopy(spec) as ModelDeploymentSpec;
  });

// ---------------------------------------------------------------- near-valid specs

/** Fields one of which a near-valid spec gets wrong. */
export const FIELD_PATHS: readonly string[][] = [
  ['model'],
  ['model', 'id'],
  ['model', 'servedName'],
  ['model', 'source'],
  ['model', 'storage'],
  ['model', 'storage', 'volumes'],
  ['model', 'storage', 'volumes', '0'],
  ['model', 'storage', 'volumes', '0', 'name'],
  ['model', 'storage', 'volumes', '0', 'size'],
  ['model', 'storage', 'volumes', '0', 'mountPath'],
  ['model', 'storage', 'volumes', '0', 'purpose'],
  ['model', 'storage', 'volumes', '0', 'claimName'],
  ['model', 'storage', 'volumes', '0', 'storageClassName'],
  ['gateway'],
  ['gateway', 'enabled'],
  ['gateway', 'modelName'],
  ['gateway', 'httpRouteRef'],
  ['gateway', 'gatewayRef'],
  ['gateway', 'gatewayRef', 'name'],
  ['gateway', 'gatewayRef', 'namespace'],
  ['provider'],
  ['provider', 'name'],
  ['provider', 'overrides'],
  ['provider', 'overrides', 'frontend', 'replicas'],
  ['provider', 'overrides', 'routerMode'],
  ['provider', 'overrides', 'head', 'rayStartParams'],
  ['provider', 'overrides', 'frontend', 'resources', 'cpu'],
  ['provider', 'overrides', 'head', 'memory'],
  ['engine'],
  ['engine', 'type'],
  ['engine', 'contextLength'],
  ['engine', 'trustRemoteCode'],
  ['engine', 'args'],
  ['engine', 'args', 'quantization'],
  ['serving', 'mode'],
  ['scaling'],
  ['scaling', 'replicas'],
  ['scaling', 'prefill'],
  ['scaling', 'prefill', 'gpu', 'count'],
  ['scaling', 'decode', 'replicas'],
  ['scaling', 'decode', 'memory'],
  ['resources'],
  ['resources', 'gpu'],
  ['resources', 'gpu', 'count'],
  ['resources', 'gpu', 'type'],
  ['resources', 'memory'],
  ['resources', 'cpu'],
  ['image'],
  ['env'],
  ['env', '0'],
  ['env', '0', 'name'],
  ['env', '0', 'valueFrom', 'secretKeyRef', 'name'],
  ['podTemplate', 'metadata', 'labels'],
  ['podTemplate', 'metadata', 'labels', 'team'],
  ['podTemplate', 'metadata', 'annotations'],
  ['secrets', 'huggingFaceToken'],
  ['nodeSelector'],
  ['nodeSelector', 'pool'],
  ['tolerations'],
  ['tolerations', '0', 'operator'],
  ['tolerations', '0', 'tolerationSeconds'],
];

/** Wrong, extreme or odd values for one field. */
const offValueArb: Arb<[string, unknown]> = fc.oneof(
  fc.constantFrom<[string, unknown]>(
    ['empty string', ''],
    ['null', null],
    ['zero', 0],
    ['negative', -1],
    ['huge', 1e308],
    ['unsafe integer', 2 ** 53 + 2],
    ['int32 overflow', 2 ** 31],
    ['fraction', 1.5],
    ['true', true],
    ['empty object', {}],
    ['empty list', []],
    ['list of strings', ['a', 'b']],
    ['string number', '1'],
    ['upper case', 'KAITO'],
    ['spaces', ' x '],
    ['emoji', '🦙🦙'],
    ['NUL', 'a\u0000'],
    ['long string', 'x'.repeat(5000)],
    ['bad label key', { 'bad key!': 'x' }],
    ['bad label value', { team: 'has spaces' }],
    ['negative quantity', '-1Gi'],
    ['prototype key', JSON.parse('{"__proto__": {"polluted": true}}')],
    ['constructor key', { constructor: 'x', toString: 1 }],
  ),
  text(20).map((s): [string, unknown] => ['text', s]),
  fc.jsonValue({ maxDepth: 3 }).map((v): [string, unknown] => ['json', v]),
);

/** Sets `path` in a copy of `spec` (creating objects on the way), or deletes it for `undefined`. */
export function setPath(spec: unknown, path: readonly string[], value: unknown): unknown {
  const root: Obj = isObj(spec) ? structuredClone(spec) : {};
  let node: Obj = root;
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (Array.isArray(next) || isObj(next)) node = next as Obj;
    else {
      const created: Obj | unknown[] = /^\d+$/.test(path[path.indexOf(key) + 1] ?? '') ? [] : {};
      defineOwn(node, key, created);
      node = created as Obj;
    }
  }
  const last = path[path.length - 1] ?? '';
  if (value === undefined) delete node[last];
  else defineOwn(node, last, value);
  return root;
}

export const nearValidArb: Arb<{ spec: unknown; mutation: { path: string[]; how: string } }> = fc
  .tuple(validSpecArb, fc.constantFrom(...FIELD_PATHS), fc.oneof({ weight: 9, arbitrary: offValueArb }, { weight: 1, arbitrary: fc.constant<[string, unknown]>(['removed', undefined]) }))
  .map(([spec, path, [how, value]]) => ({ spec: setPath(spec, path, value), mutation: { path: [...path], how } }));

// ---------------------------------------------------------------- hostile specs

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** Nested `depth` levels deep: objects or lists, alternating by `shape`. */
export function deeplyNested(depth: number, shape: 'object' | 'array' | 'mixed'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) {
    const asArray = shape === 'array' || (shape === 'mixed' && i % 2 === 0);
    value = asArray ? [value] : { nested: value };
  }
  return value;
}

/** Puts prototype keys as own properties into every object of `value` chosen by `pick`. */
function withProtoKeys(value: unknown, pick: number, payload: unknown): unknown {
  let n = 0;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObj(v)) return v;
    const out: Obj = {};
    for (const [k, child] of Object.entries(v)) defineOwn(out, k, walk(child));
    if (n++ % 3 === pick % 3) defineOwn(out, PROTO_KEYS[pick % PROTO_KEYS.length] ?? '__proto__', payload);
    return out;
  };
  return walk(value);
}

export const hostileSpecArb: Arb<unknown> = fc.oneof(
  // Arbitrary values at the root, including non-JSON ones (undefined, NaN, -0, Infinity, sparse arrays, boxed values).
  fc.anything({ maxDepth: 4, withBoxedValues: true, withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true, withDate: true, withMap: true, withSet: true }),
  fc.jsonValue({ maxDepth: 6 }),
  // Valid specs with prototype keys at every level (as JSON.parse would produce them).
  fc.tuple(validSpecArb, fc.nat(100), fc.oneof(fc.constant({ polluted: true }), fc.constant('x'), fc.constant(null), fc.constant([1]))).map(([spec, pick, payload]) => withProtoKeys(spec, pick, payload)),
  fc.constantFrom(
    JSON.parse('{"__proto__": {"engine": {"type": "vllm"}}, "model": {"id": "a/b"}}'),
    JSON.parse('{"model": {"__proto__": {"id": "a/b"}}, "engine": {"type": "llamacpp"}, "image": "x"}'),
    JSON.parse('{"engine": {"type": "llamacpp", "args": {"__proto__": "x", "constructor": "y"}}, "model": {"id": "a/b"}, "image": "i"}'),
    JSON.parse('{"engine": {"type": "llamacpp"}, "model": {"id": "a/b"}, "image": "i", "nodeSelector": {"__proto__": "x"}, "podTemplate": {"metadata": {"labels": {"__proto__": "y"}}}}'),
    Object.create(null),
    { model: Object.create({ id: 'inherited/id' }), engine: { type: 'llamacpp' }, image: 'i' },
  ),
  // Deep nesting where the schema lets arbitrary content in (overrides) and where it does not.
  fc
    .tuple(validSpecArb, fc.integer({ min: 100, max: 1000 }), fc.constantFrom('object', 'array', 'mixed') as Arb<'object' | 'array' | 'mixed'>, fc.constantFrom(...FIELD_PATHS))
    .map(([spec, depth, shape, path]) => setPath(spec, path, deeplyNested(depth, shape))),
  // Huge numbers and odd types in every numeric field.
  fc
    .tuple(validSpecArb, fc.constantFrom<unknown>(Number.MAX_VALUE, -Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 64, 1e-320, BigInt(5), Symbol('s'), () => 1), fc.constantFrom(...FIELD_PATHS))
    .map(([spec, value, path]) => setPath(spec, path, value)),
  // Lists and maps far beyond any real size.
  validSpecArb.map((spec) => ({
    ...spec,
    env: Array.from({ length: 500 }, (_, i) => ({ name: `V${i}`, value: 'x'.repeat(i) })),
    engine: { ...spec.engine, args: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, String(i)])) },
  })),
);

// ---------------------------------------------------------------- deployments

export function deploymentArb(kind: SpecKind): Arb<FuzzDeployment> {
  const base = fc.record({ name: mdNameArb, namespace: fc.constantFrom('default', 'team-a', 'n'.repeat(63)), labels: mdLabelsArb });
  switch (kind) {
    case 'valid':
      return fc.tuple(base, validSpecArb).map(([b, spec]) => ({ kind, ...b, spec }));
    case 'nearValid':
      return fc.tuple(base, nearValidArb).map(([b, { spec, mutation }]) => ({ kind, ...b, spec, mutation }));
    case 'hostile':
      return fc.tuple(base, hostileSpecArb).map(([b, spec]) => ({ kind, ...b, spec }));
  }
}

/** A copy whose objects all have Object.prototype, as JSON.parse makes them (fast-check may make null-prototype ones). */
function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) defineOwn(out, k, plainCopy(v));
  return out;
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own, enumerable property even for `__proto__` (plain assignment would set the prototype). */
function defineOwn(target: Obj | unknown[], key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
