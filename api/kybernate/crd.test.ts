// What the three Kybernate declarations admit: each validator interprets the very schema its CRD is
// serialized from (api/crd/kybernate-*-schema.ts), CEL rules included, plus the pod template's own
// check; what a validator returns is what the API server stores (defaults filled in, unknown fields
// pruned). The real API server's answers on the generated CRDs are test/crd/api-server-validation.test.ts's.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kybernateCheckpointCrd, kybernateRestoreCrd, kybernateWorkloadCrd } from './crd.ts';
import type { Validation as KindValidation } from '../common/object-validator.ts';
import type { CustomResourceDefinition } from '../crd/schema-types.ts';
import type { JSONSchemaProps as Node } from '../crd/schema-types.ts';
import { stored } from '../schema/stored.ts';
import { CHECKPOINT_KIND, RESTORE_KIND, WORKLOAD_KIND } from './constants.ts';
import { KybernateMessage } from './messages.ts';
import { checkpointSpec, kybernateObject, restoreSpec, workloadSpec } from './testing.ts';
import { validateKybernateCheckpoint, validateKybernateRestore, validateKybernateWorkload } from './validate.ts';

type Json = Record<string, unknown>;
type Validation = { valid: true; spec: unknown } | { valid: false; messages: string[]; fields: string[] };

interface Kind {
  kind: string;
  root: Node;
  base: () => Json;
  validate: (object: unknown) => Validation;
}

/** One kind of the table: its CRD, fixture and validator, whose result is read under `key`. */
function kindOf<K extends string>(kind: string, crd: CustomResourceDefinition, base: () => Json, key: K, validate: (o: unknown) => KindValidation<K, { spec: unknown }>): Kind {
  return {
    kind,
    root: crd.spec.versions[0]!.schema.openAPIV3Schema,
    base,
    validate: (o) => {
      const r = validate(o);
      return r.valid ? { valid: true, spec: r[key].spec } : { valid: false, messages: r.errors.map((e) => e.message), fields: r.errors.map((e) => e.field) };
    },
  };
}

const KINDS: Record<'checkpoint' | 'restore' | 'workload', Kind> = {
  checkpoint: kindOf(CHECKPOINT_KIND, kybernateCheckpointCrd, checkpointSpec, 'checkpoint', validateKybernateCheckpoint),
  restore: kindOf(RESTORE_KIND, kybernateRestoreCrd, restoreSpec, 'restore', validateKybernateRestore),
  workload: kindOf(WORKLOAD_KIND, kybernateWorkloadCrd, workloadSpec, 'workload', validateKybernateWorkload),
};

type Row = [name: string, kind: Kind, object: Json, valid: boolean];

function variant(kind: Kind, change: (spec: Json) => void = () => {}, name?: string): Json {
  const spec = structuredClone(kind.base());
  change(spec);
  return kybernateObject(kind.kind, spec, name ? { name } : {});
}
const cp = (change?: (s: Json) => void, name?: string) => variant(KINDS.checkpoint, change, name);
const rs = (change?: (s: Json) => void, name?: string) => variant(KINDS.restore, change, name);
const wl = (change?: (s: Json) => void, name?: string) => variant(KINDS.workload, change, name);
const row = (name: string, kind: keyof typeof KINDS, object: Json, valid: boolean): Row => [name, KINDS[kind], object, valid];
const target = (s: Json) => s.targetPod as Json;
const containers = (s: Json) => ((s.template as Json).spec as Json).containers as Json[];

const TABLE: Row[] = [
  row("the seed's checkpoint", 'checkpoint', cp(), true),
  row('only podName (every default)', 'checkpoint', cp((s) => Object.keys(s).forEach((k) => k !== 'podName' && delete s[k])), true),
  row('no podName', 'checkpoint', cp((s) => delete s.podName), false),
  row('empty podName', 'checkpoint', cp((s) => (s.podName = '')), false),
  row('podName with upper case', 'checkpoint', cp((s) => (s.podName = 'GPU')), false),
  row('podName with a dot', 'checkpoint', cp((s) => (s.podName = 'gpu.inference')), true),
  row('containerName with a dot', 'checkpoint', cp((s) => (s.containerName = 'a.b')), false),
  row('containerName of 64 characters', 'checkpoint', cp((s) => (s.containerName = 'a'.repeat(64))), false),
  row('leaveRunning false', 'checkpoint', cp((s) => (s.leaveRunning = false)), true),
  row('leaveRunning "yes"', 'checkpoint', cp((s) => (s.leaveRunning = 'yes')), false),
  row('timeout 1', 'checkpoint', cp((s) => (s.timeout = 1)), true),
  row('timeout 0', 'checkpoint', cp((s) => (s.timeout = 0)), false),
  row('timeout 1.5', 'checkpoint', cp((s) => (s.timeout = 1.5)), false),
  row('timeout "300"', 'checkpoint', cp((s) => (s.timeout = '300')), false),
  row('storage null (defaults)', 'checkpoint', cp((s) => (s.storage = null)), true),
  row('storage without a type (containerd)', 'checkpoint', cp((s) => (s.storage = {})), true),
  row('storage type nfs', 'checkpoint', cp((s) => (s.storage = { type: 'nfs' })), false),
  row('registry with an image', 'checkpoint', cp((s) => (s.storage = { type: 'registry', image: 'registry.example.com/checkpoints/x:v1' })), true),
  row('registry without an image', 'checkpoint', cp((s) => (s.storage = { type: 'registry' })), false),
  row('registry with an empty image', 'checkpoint', cp((s) => (s.storage = { type: 'registry', image: '' })), false),
  row('registry image with a space', 'checkpoint', cp((s) => (s.storage = { type: 'registry', image: 'a b' })), false),
  row('s3 with bucket and key', 'checkpoint', cp((s) => (s.storage = { type: 's3', bucket: 'kybernate-checkpoints', key: 'x.tar' })), true),
  row('s3 without a key', 'checkpoint', cp((s) => (s.storage = { type: 's3', bucket: 'b' })), false),
  row('s3 without bucket and key', 'checkpoint', cp((s) => (s.storage = { type: 's3' })), false),
  row('containerd with a stray image', 'checkpoint', cp((s) => (s.storage = { image: 'x:1' })), true),
  row('gpu without pluginPath', 'checkpoint', cp((s) => (s.gpu = { enabled: true })), true),
  row('gpu pluginPath relative', 'checkpoint', cp((s) => (s.gpu = { pluginPath: 'lib/criu' })), false),
  row('gpu a string', 'checkpoint', cp((s) => (s.gpu = 'cuda')), false),
  row('unknown fields are pruned', 'checkpoint', cp((s) => ((s.action = 'checkpoint'), (s.storage = { type: 'containerd', path: '/x' }))), true),
  row('a checkpoint name of 253 characters', 'checkpoint', cp(() => {}, 'a'.repeat(253)), true),
  row('a checkpoint name with upper case', 'checkpoint', cp(() => {}, 'Cp'), false),

  row("the seed's restore", 'restore', rs(), true),
  row('checkpointImage instead of checkpointRef', 'restore', rs((s) => ((s.checkpointImage = 'containerd.io/checkpoint/abc:1'), delete s.checkpointRef)), true),
  row('both checkpointRef and checkpointImage', 'restore', rs((s) => (s.checkpointImage = 'containerd.io/checkpoint/abc:1')), false),
  row('neither checkpointRef nor checkpointImage', 'restore', rs((s) => delete s.checkpointRef), false),
  row('checkpointRef null', 'restore', rs((s) => (s.checkpointRef = null)), false),
  row('checkpointRef with upper case', 'restore', rs((s) => (s.checkpointRef = 'My')), false),
  row('checkpointImage empty', 'restore', rs((s) => ((s.checkpointImage = ''), delete s.checkpointRef)), false),
  row('no targetPod', 'restore', rs((s) => delete s.targetPod), true),
  row('targetPod without a name', 'restore', rs((s) => delete target(s).name), true),
  row('targetPod name with an underscore', 'restore', rs((s) => (target(s).name = 'a_b')), false),
  row('nodeSelector value of 64 characters', 'restore', rs((s) => (target(s).nodeSelector = { zone: 'a'.repeat(64) })), false),
  row('nodeSelector value with a slash', 'restore', rs((s) => (target(s).nodeSelector = { zone: 'a/b' })), false),
  row('nodeSelector value empty', 'restore', rs((s) => (target(s).nodeSelector = { zone: '' })), true),
  row('nodeSelector value a number', 'restore', rs((s) => (target(s).nodeSelector = { zone: 1 })), false),
  row('resources with cpu and memory', 'restore', rs((s) => (target(s).resources = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2 } })), true),
  row('negative resources', 'restore', rs((s) => (target(s).resources = { limits: { cpu: '-1' } })), false),
  row('fractional quantity number', 'restore', rs((s) => (target(s).resources = { limits: { cpu: 0.5 } })), false),
  row('timeout 0', 'restore', rs((s) => (s.timeout = 0)), false),
  row('timeout left out (600)', 'restore', rs((s) => delete s.timeout), true),
  row('gpu enabled "true"', 'restore', rs((s) => (s.gpu = { enabled: 'true' })), false),
  row('a restore name of 63 characters', 'restore', rs(() => {}, 'a'.repeat(63)), true),
  row('a restore name of 64 characters', 'restore', rs(() => {}, 'a'.repeat(64)), false),

  row("the seed's workload", 'workload', wl(), true),
  row('only a template (every default)', 'workload', wl((s) => Object.keys(s).forEach((k) => k !== 'template' && delete s[k])), true),
  row('no template', 'workload', wl((s) => delete s.template), false),
  row('template a string', 'workload', wl((s) => (s.template = 'pod')), false),
  row('idleTimeout 1h30m', 'workload', wl((s) => (s.suspend = { idleTimeout: '1h30m' })), true),
  row('idleTimeout 500ms', 'workload', wl((s) => (s.suspend = { idleTimeout: '500ms' })), true),
  row('idleTimeout 0s', 'workload', wl((s) => (s.suspend = { idleTimeout: '0s' })), false),
  row('idleTimeout 00m10s', 'workload', wl((s) => (s.suspend = { idleTimeout: '00m10s' })), true),
  row('idleTimeout 5 (no unit)', 'workload', wl((s) => (s.suspend = { idleTimeout: '5' })), false),
  row('idleTimeout 1.5h', 'workload', wl((s) => (s.suspend = { idleTimeout: '1.5h' })), false),
  row('idleTimeout 300 (a number)', 'workload', wl((s) => (s.suspend = { idleTimeout: 300 })), false),
  row('idleTimeout 5d', 'workload', wl((s) => (s.suspend = { idleTimeout: '5d' })), false),
  row('suspend storage registry without an image', 'workload', wl((s) => (s.suspend = { storage: { type: 'registry' } })), false),
  row('suspend storage s3', 'workload', wl((s) => (s.suspend = { storage: { type: 's3', bucket: 'b', key: 'k' } })), true),
  row('minReplicas above maxReplicas', 'workload', wl((s) => (s.scaleToZero = { minReplicas: 3, maxReplicas: 2 })), false),
  row('minReplicas above the default maxReplicas', 'workload', wl((s) => (s.scaleToZero = { minReplicas: 6 })), false),
  row('maxReplicas 0', 'workload', wl((s) => (s.scaleToZero = { maxReplicas: 0 })), false),
  row('minReplicas -1', 'workload', wl((s) => (s.scaleToZero = { minReplicas: -1 })), false),
  row('activator port 0', 'workload', wl((s) => (s.activator = { port: 0 })), false),
  row('activator port 65536', 'workload', wl((s) => (s.activator = { port: 65536 })), false),
  row('healthPath without a slash', 'workload', wl((s) => (s.activator = { healthPath: 'health' })), false),
  row('queueTimeout 2m', 'workload', wl((s) => (s.activator = { queueTimeout: '2m' })), true),
  row('queueTimeout empty', 'workload', wl((s) => (s.activator = { queueTimeout: '' })), false),
  row('activator null (defaults)', 'workload', wl((s) => (s.activator = null)), true),
  row('a template without containers (workflow only)', 'workload', wl((s) => (s.template = { spec: {} })), false),
  row('a template without a spec (workflow only)', 'workload', wl((s) => (s.template = { metadata: {} })), false),
  row('a container without an image (workflow only)', 'workload', wl((s) => delete containers(s)[0]!.image), false),
  row('two containers of one name (workflow only)', 'workload', wl((s) => containers(s).push({ name: 'model', image: 'x' })), false),
  row('a second container', 'workload', wl((s) => containers(s).push({ name: 'proxy', image: 'envoy:1' })), true),
  row('a workload name of 63 characters', 'workload', wl(() => {}, 'a'.repeat(63)), true),
  row('a workload name of 64 characters', 'workload', wl(() => {}, 'a'.repeat(64)), false),
];

describe('what the Kybernate kinds may be', () => {
  it.each(TABLE)('%s', (_name, kind, object, expectValid) => {
    expect(kind.validate(object).valid).toBe(expectValid);
  });

  it('a valid spec comes back as the API server stores it: defaults filled in, unknown fields dropped', () => {
    for (const [name, kind, object, valid] of TABLE) {
      if (!valid) continue;
      const result = kind.validate(object);
      expect(result.valid && result.spec, name).toEqual((stored(object, kind.root) as Json).spec);
    }
  });

  it("the CRDs' CEL rules answer offline in their own words", () => {
    const known = Object.values(KybernateMessage) as string[];
    const cases: [Kind, Json][] = [
      [KINDS.checkpoint, cp((s) => (s.storage = { type: 'registry' }))],
      [KINDS.checkpoint, cp((s) => (s.storage = { type: 's3', key: 'k' }))],
      [KINDS.restore, rs((s) => (s.checkpointImage = 'x:1'))],
      [KINDS.restore, rs((s) => delete s.checkpointRef)],
      [KINDS.restore, rs(() => {}, 'r'.repeat(64))],
      [KINDS.workload, wl((s) => (s.scaleToZero = { minReplicas: 9 }))],
      [KINDS.workload, wl((s) => (s.suspend = { storage: { type: 's3' } }), 'w'.repeat(64))],
    ];
    for (const [kind, object] of cases) {
      const result = kind.validate(object);
      expect(result.valid ? [] : result.messages.filter((m) => known.includes(m))).not.toEqual([]);
    }
  });
});

describe('the generated Kybernate CRDs (deploy/crds/kybernate.io_*.yaml)', () => {
  const committed = (plural: string) =>
    parse(readFileSync(join(import.meta.dirname, '..', '..', 'deploy', 'crds', `kybernate.io_${plural}.yaml`), 'utf8')) as CustomResourceDefinition;

  it.each([
    ['kybernatecheckpoints', 'KybernateCheckpoint', 'kcp', ['Phase', 'Pod', 'Size', 'Node', 'Ref', 'Age'], ['Pending', 'InProgress', 'Completed', 'Failed']],
    ['kybernaterestores', 'KybernateRestore', 'krs', ['Phase', 'Checkpoint', 'Pod', 'Image', 'Age'], ['Pending', 'Restoring', 'Running', 'Failed']],
    ['kybernateworkloads', 'KybernateWorkload', 'kwl', ['Phase', 'Pod', 'Checkpoints', 'Last Activity', 'Age'], ['Pending', 'Running', 'Suspending', 'Suspended', 'Restoring', 'Failed']],
  ])('%s: namespaced in kybernate.io/v1alpha1, short name, category kybernate, status subresource, printer columns, phase enum', (plural, kind, shortName, columns, phases) => {
    const crd = committed(plural);
    expect(crd.metadata.name).toBe(`${plural}.kybernate.io`);
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.names).toEqual({ kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), shortNames: [shortName], categories: ['kybernate'] });
    const version = crd.spec.versions[0]!;
    expect(version.name).toBe('v1alpha1');
    expect(version.subresources).toEqual({ status: {} });
    expect(version.additionalPrinterColumns?.map((c) => c.name)).toEqual(columns);
    expect(version.schema.openAPIV3Schema.properties?.status?.properties?.phase?.enum).toEqual(phases);
  });

  it("the seed's defaults: leaveRunning true, timeouts 300 and 600, idleTimeout 5m, queueTimeout 30s, storage containerd", () => {
    const spec = (plural: string) => committed(plural).spec.versions[0]!.schema.openAPIV3Schema.properties!.spec!.properties!;
    const checkpoint = spec('kybernatecheckpoints');
    expect([checkpoint.leaveRunning!.default, checkpoint.timeout!.default, checkpoint.storage!.properties!.type!.default]).toEqual([true, 300, 'containerd']);
    expect(checkpoint.containerName!.default).toBeUndefined();
    expect(spec('kybernaterestores').timeout!.default).toBe(600);
    const workload = spec('kybernateworkloads');
    expect([workload.suspend!.properties!.idleTimeout!.default, workload.activator!.properties!.queueTimeout!.default]).toEqual(['5m', '30s']);
  });
});
