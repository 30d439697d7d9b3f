// The AsyncActor CRD and validateAsyncActor agree: whatever the API server would admit, the workflow
// accepts, and the reverse, except for the checks only the workflow can make (inside the pod template,
// the workloadRef's namespace), which the table marks. The schema is evaluated offline the way the API
// server does it: nulls dropped, defaults filled in, then types, bounds, patterns, enums, required keys
// and list-map keys, then the CEL rules on every node present.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asyncActorCrd } from '../crd/crds.ts';
import { admitted as isAdmitted, celFailures, rootSchemaOf, stored } from '../testing/admission.ts';
import { AsyncActorMessage } from './messages.ts';
import { actorObject, bindingSpec, standaloneSpec } from './testing.ts';
import { validateAsyncActor } from './validate.ts';

type Json = Record<string, unknown>;

const root = rootSchemaOf(asyncActorCrd);
const admitted = (object: Json): boolean => isAdmitted(object, root);

function variant(base: () => Json, change: (spec: Json) => void, name?: string): Json {
  const spec = structuredClone(base());
  change(spec);
  return actorObject(spec, { ...(name ? { name } : {}) });
}
const standalone = (change: (s: Json) => void = () => {}, name?: string) => variant(standaloneSpec, change, name);
const binding = (change: (s: Json) => void = () => {}, name?: string) => variant(bindingSpec, change, name);
const wl = (s: Json) => s.workload as Json;
const podSpec = (s: Json) => (wl(s).template as Json).spec as Json;
const ref = (s: Json) => s.workloadRef as Json;
const rt = (s: Json) => s.runtime as Json;
const toModelDeployment = (s: Json) => {
  s.workloadRef = { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'gemma-cpu' };
  delete rt(s).targetService;
};

/** [case, object, admitted by the API server, accepted by validateAsyncActor] */
const TABLE: [string, Json, boolean, boolean][] = [
  ["the seed's standalone example", standalone(), true, true],
  ["the seed's binding example", binding(), true, true],
  ['both workload and workloadRef', standalone((s) => (s.workloadRef = bindingSpec().workloadRef)), false, false],
  ['neither workload nor workloadRef', standalone((s) => delete s.workload), false, false],
  ['workloadRef without runtime', binding((s) => delete s.runtime), false, false],
  ['runtime with workload', standalone((s) => (s.runtime = bindingSpec().runtime)), false, false],
  ['runtime without handler', binding((s) => delete rt(s).handler), false, false],
  ['runtime with an empty handler', binding((s) => (rt(s).handler = '')), false, false],
  ['targetURL instead of targetService', binding((s) => ((rt(s).targetURL = 'http://phi-3:8080'), delete rt(s).targetService)), true, true],
  ['both targetURL and targetService', binding((s) => (rt(s).targetURL = 'http://phi-3:8080')), false, false],
  ['neither targetURL nor targetService on a Workspace', binding((s) => delete rt(s).targetService), false, false],
  ['neither on a ModelDeployment (status.endpoint is used)', binding(toModelDeployment), true, true],
  ['a ModelDeployment with a targetURL', binding((s) => (toModelDeployment(s), (rt(s).targetURL = 'https://x.example/v1'))), true, true],
  ['targetURL not http', binding((s) => ((rt(s).targetURL = 'ftp://x'), delete rt(s).targetService)), false, false],
  ['targetService port 0', binding((s) => ((rt(s).targetService as Json).port = 0)), false, false],
  ['targetService port 65536', binding((s) => ((rt(s).targetService as Json).port = 65536)), false, false],
  ['targetService without a port', binding((s) => delete (rt(s).targetService as Json).port), false, false],
  ['targetService protocol https', binding((s) => ((rt(s).targetService as Json).protocol = 'https')), true, true],
  ['targetService protocol grpc', binding((s) => ((rt(s).targetService as Json).protocol = 'grpc')), false, false],
  ['targetService path without a slash', binding((s) => ((rt(s).targetService as Json).path = 'v1')), false, false],
  ['targetService name with a dot', binding((s) => ((rt(s).targetService as Json).name = 'a.b')), false, false],
  ['a Deployment reference', binding((s) => (s.workloadRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'vllm' })), true, true],
  ['a StatefulSet reference', binding((s) => (s.workloadRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'vllm' })), true, true],
  ['a Deployment reference with a KAITO apiVersion', binding((s) => (s.workloadRef = { apiVersion: 'kaito.sh/v1beta1', kind: 'Deployment', name: 'x' })), false, false],
  ['a ModelDeployment reference with apps/v1', binding((s) => (toModelDeployment(s), (ref(s).apiVersion = 'apps/v1'))), false, false],
  ['a Workspace reference with apps/v1', binding((s) => (ref(s).apiVersion = 'apps/v1')), false, false],
  ['an InferenceService reference', binding((s) => (ref(s).kind = 'InferenceService')), false, false],
  ['a reference without a name', binding((s) => delete ref(s).name), false, false],
  ['a reference without an apiVersion', binding((s) => delete ref(s).apiVersion), false, false],
  ['a reference in the same namespace', binding((s) => (ref(s).namespace = 'ml')), true, true],
  ['a reference into another namespace (workflow only)', binding((s) => (ref(s).namespace = 'other')), true, false],
  ['no transport', standalone((s) => delete s.transport), false, false],
  ['transport sqs', standalone((s) => (s.transport = 'sqs')), true, true],
  ['transport kafka', standalone((s) => (s.transport = 'kafka')), false, false],
  ['scaling left out (defaults)', standalone((s) => delete s.scaling), true, true],
  ['scaling null (defaults)', standalone((s) => (s.scaling = null)), true, true],
  ['minReplicas above maxReplicas', standalone((s) => (s.scaling = { minReplicas: 5, maxReplicas: 2 })), false, false],
  ['minReplicas above the default maxReplicas', standalone((s) => (s.scaling = { minReplicas: 51 })), false, false],
  ['maxReplicas 0', standalone((s) => (s.scaling = { maxReplicas: 0 })), false, false],
  ['queueLength 0', standalone((s) => (s.scaling = { queueLength: 0 })), false, false],
  ['enabled "yes"', standalone((s) => (s.scaling = { enabled: 'yes' })), false, false],
  ['timeout processing 0', standalone((s) => (s.timeout = { processing: 0 })), false, false],
  ['timeout gracefulShutdown 0', standalone((s) => (s.timeout = { gracefulShutdown: 0 })), true, true],
  ['timeout gracefulShutdown 1.5', standalone((s) => (s.timeout = { gracefulShutdown: 1.5 })), false, false],
  ['workload kind StatefulSet', standalone((s) => (wl(s).kind = 'StatefulSet')), true, true],
  ['workload kind Job', standalone((s) => (wl(s).kind = 'Job')), false, false],
  ['workload replicas -1', standalone((s) => (wl(s).replicas = -1)), false, false],
  ['workload without a template', standalone((s) => delete wl(s).template), false, false],
  ['workload template a string', standalone((s) => (wl(s).template = 'x')), false, false],
  ['pythonExecutable empty', standalone((s) => (wl(s).pythonExecutable = '')), false, false],
  ['a user container named asya-sidecar (workflow only)', standalone((s) => (podSpec(s).containers as Json[]).push({ name: 'asya-sidecar', image: 'x' })), true, false],
  ['no asya-runtime container (workflow only)', standalone((s) => ((podSpec(s).containers as Json[])[0]!.name = 'main')), true, false],
  ['two asya-runtime containers (workflow only)', standalone((s) => (podSpec(s).containers as Json[]).push({ name: 'asya-runtime', image: 'x' })), true, false],
  ['asya-runtime with a command (workflow only)', standalone((s) => ((podSpec(s).containers as Json[])[0]!.command = ['python'])), true, false],
  ['a user volume named tmp (workflow only)', standalone((s) => (podSpec(s).volumes = [{ name: 'tmp', emptyDir: {} }])), true, false],
  ['a template without containers (workflow only)', standalone((s) => delete podSpec(s).containers), true, false],
  ['a second user container', standalone((s) => (podSpec(s).containers as Json[]).push({ name: 'helper', image: 'busybox' })), true, true],
  ['sidecar settings', standalone((s) => (s.sidecar = { image: 'ghcr.io/asya/sidecar:1.2', imagePullPolicy: 'Always', env: [{ name: 'ASYA_LOG_LEVEL', value: 'debug' }], resources: { limits: { cpu: 1 } } })), true, true],
  ['sidecar image with a space', standalone((s) => (s.sidecar = { image: 'a b' })), false, false],
  ['sidecar pull policy Sometimes', standalone((s) => (s.sidecar = { imagePullPolicy: 'Sometimes' })), false, false],
  ['duplicate sidecar env names', standalone((s) => (s.sidecar = { env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] })), false, false],
  ['an env entry without a name', binding((s) => (rt(s).env = [{ value: '1' }])), false, false],
  ['env valueFrom', binding((s) => (rt(s).env = [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }])), true, true],
  ['runtime resources', binding((s) => (rt(s).resources = { requests: { cpu: '500m' }, limits: { memory: '1Gi' } })), true, true],
  ['negative runtime resources', binding((s) => (rt(s).resources = { limits: { cpu: '-1' } })), false, false],
  ['fractional quantity number', binding((s) => (rt(s).resources = { limits: { cpu: 0.5 } })), false, false],
  ['unknown fields are pruned', standalone((s) => ((s.extra = 1), (s.scaling = { advanced: { formula: 'x' } }))), true, true],
  ['name of 63 characters', standalone(() => {}, 'a'.repeat(63)), true, true],
  ['name of 64 characters', standalone(() => {}, 'a'.repeat(64)), false, false],
  ['name starting with a digit', standalone(() => {}, '1actor'), true, true],
  ['name with a dot', standalone(() => {}, 'text.processor'), false, false],
  ['name with upper case', standalone(() => {}, 'Actor'), false, false],
];

describe('the AsyncActor CRD and validateAsyncActor agree', () => {
  it.each(TABLE)('%s', (_name, object, expectAdmitted, expectValid) => {
    expect(admitted(object)).toBe(expectAdmitted);
    expect(validateAsyncActor(object).valid).toBe(expectValid);
  });

  it('the CEL rules and validateAsyncActor give the same messages', () => {
    const messages = (object: Json) => ({
      cel: celFailures(stored(object, root), root).sort(),
      validate: (() => {
        const result = validateAsyncActor(object);
        const known = Object.values(AsyncActorMessage) as string[];
        return result.valid ? [] : result.errors.map((e) => e.message).filter((m) => known.includes(m)).sort();
      })(),
    });
    for (const object of [
      standalone((s) => (s.workloadRef = bindingSpec().workloadRef)),
      standalone((s) => delete s.workload),
      binding((s) => delete s.runtime),
      standalone((s) => (s.runtime = bindingSpec().runtime)),
      binding((s) => (rt(s).targetURL = 'http://x')),
      binding((s) => delete rt(s).targetService),
      standalone((s) => (s.scaling = { minReplicas: 5, maxReplicas: 2 })),
      binding((s) => (ref(s).apiVersion = 'apps/v1')),
      standalone(() => {}, 'Bad.Name'),
    ]) {
      const { cel, validate } = messages(object);
      expect(cel.length).toBeGreaterThan(0);
      expect(validate).toEqual(cel);
    }
  });

  it("the seed's message, word for word", () => {
    const result = validateAsyncActor(standalone((s) => delete s.workload));
    expect(result.valid ? [] : result.errors).toContainEqual({ field: 'spec', message: "Exactly one of 'workload' or 'workloadRef' must be set" });
  });

  it('on specs built from good and bad parts', () => {
    const optional = (...values: unknown[]) => fc.constantFrom<unknown>(undefined, ...values);
    const template = optional(
      (standaloneSpec().workload as Json).template,
      { spec: { containers: [{ name: 'asya-sidecar', image: 'x' }] } },
      'x',
    );
    const workload = fc.oneof(optional('x'), fc.record({ kind: optional('Deployment', 'StatefulSet', 'Job'), replicas: optional(0, 2, -1), template }, { requiredKeys: [] }));
    const workloadRef = fc.oneof(
      optional(),
      fc.record(
        {
          apiVersion: optional('apps/v1', 'kaito.sh/v1beta1', 'kubeairunway.ai/v1alpha1', ''),
          kind: optional('Deployment', 'StatefulSet', 'Workspace', 'ModelDeployment', 'Pod'),
          name: optional('phi-3', 'Bad_Name'),
          namespace: optional('ml', 'other'),
        },
        { requiredKeys: [] },
      ),
    );
    const runtime = fc.oneof(
      optional('x'),
      fc.record(
        {
          handler: optional('a.b', '', 'a b'),
          targetURL: optional('http://x:8080', 'x'),
          targetService: optional({ name: 'svc', port: 80 }, { name: 'svc' }, { name: 'svc', port: 80, protocol: 'grpc' }),
          image: optional('img:1', ''),
          env: optional([{ name: 'A', value: '1' }], [{ name: 'A' }, { name: 'A' }], 'x'),
        },
        { requiredKeys: [] },
      ),
    );
    const scaling = optional({ enabled: true }, { minReplicas: 3, maxReplicas: 2 }, { maxReplicas: 0 }, { queueLength: 2 }, null);
    const spec = fc.record({ transport: optional('rabbitmq', 'sqs', 'kafka'), workload, workloadRef, runtime, scaling }, { requiredKeys: [] });
    const name = fc.constantFrom('actor', 'a'.repeat(63), 'a'.repeat(64), 'Bad');
    fc.assert(
      fc.property(name, spec, (n, s) => {
        const object = JSON.parse(JSON.stringify(actorObject(s, { name: n }))) as Json;
        const result = validateAsyncActor(object);
        // The workflow refuses more than the API server only for what the API server cannot see.
        if (admitted(object) && !result.valid) {
          const workflowOnly = (field: string) => field.startsWith('spec.workload.template') || field === 'spec.workloadRef.namespace';
          expect(result.errors.filter((e) => !workflowOnly(e.field))).toEqual([]);
        } else {
          expect(result.valid).toBe(admitted(object));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
