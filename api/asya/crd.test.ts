// What the AsyncActor declaration admits: the validator interprets the very schema the CRD is
// serialized from (api/crd/async-actor-schema.ts), CEL rules included, plus the checks only it can make
// (inside the pod template, the workloadRef's namespace). The real API server's answers on the generated
// CRD are test/crd/api-server-validation.test.ts's.

import { describe, expect, it } from 'vitest';
import { AsyncActorMessage } from './messages.ts';
import { actorObject, bindingSpec, standaloneSpec } from './testing.ts';
import { validateAsyncActor } from './validate.ts';

type Json = Record<string, unknown>;

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

/** [case, object, accepted by validateAsyncActor] */
const TABLE: [string, Json, boolean][] = [
  ["the seed's standalone example", standalone(), true],
  ["the seed's binding example", binding(), true],
  ['both workload and workloadRef', standalone((s) => (s.workloadRef = bindingSpec().workloadRef)), false],
  ['neither workload nor workloadRef', standalone((s) => delete s.workload), false],
  ['workloadRef without runtime', binding((s) => delete s.runtime), false],
  ['runtime with workload', standalone((s) => (s.runtime = bindingSpec().runtime)), false],
  ['runtime without handler', binding((s) => delete rt(s).handler), false],
  ['runtime with an empty handler', binding((s) => (rt(s).handler = '')), false],
  ['targetURL instead of targetService', binding((s) => ((rt(s).targetURL = 'http://phi-3:8080'), delete rt(s).targetService)), true],
  ['both targetURL and targetService', binding((s) => (rt(s).targetURL = 'http://phi-3:8080')), false],
  ['neither targetURL nor targetService on a Workspace', binding((s) => delete rt(s).targetService), false],
  ['neither on a ModelDeployment (status.endpoint is used)', binding(toModelDeployment), true],
  ['a ModelDeployment with a targetURL', binding((s) => (toModelDeployment(s), (rt(s).targetURL = 'https://x.example/v1'))), true],
  ['targetURL not http', binding((s) => ((rt(s).targetURL = 'ftp://x'), delete rt(s).targetService)), false],
  ['targetService port 0', binding((s) => ((rt(s).targetService as Json).port = 0)), false],
  ['targetService port 65536', binding((s) => ((rt(s).targetService as Json).port = 65536)), false],
  ['targetService without a port', binding((s) => delete (rt(s).targetService as Json).port), false],
  ['targetService protocol https', binding((s) => ((rt(s).targetService as Json).protocol = 'https')), true],
  ['targetService protocol grpc', binding((s) => ((rt(s).targetService as Json).protocol = 'grpc')), false],
  ['targetService path without a slash', binding((s) => ((rt(s).targetService as Json).path = 'v1')), false],
  ['targetService name with a dot', binding((s) => ((rt(s).targetService as Json).name = 'a.b')), false],
  ['a Deployment reference', binding((s) => (s.workloadRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'vllm' })), true],
  ['a StatefulSet reference', binding((s) => (s.workloadRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'vllm' })), true],
  ['a Deployment reference with a KAITO apiVersion', binding((s) => (s.workloadRef = { apiVersion: 'kaito.sh/v1beta1', kind: 'Deployment', name: 'x' })), false],
  ['a ModelDeployment reference with apps/v1', binding((s) => (toModelDeployment(s), (ref(s).apiVersion = 'apps/v1'))), false],
  ['a Workspace reference with apps/v1', binding((s) => (ref(s).apiVersion = 'apps/v1')), false],
  ['an InferenceService reference', binding((s) => (ref(s).kind = 'InferenceService')), false],
  ['a reference without a name', binding((s) => delete ref(s).name), false],
  ['a reference without an apiVersion', binding((s) => delete ref(s).apiVersion), false],
  ['a reference in the same namespace', binding((s) => (ref(s).namespace = 'ml')), true],
  ['a reference into another namespace (workflow only)', binding((s) => (ref(s).namespace = 'other')), false],
  ['no transport', standalone((s) => delete s.transport), false],
  ['transport sqs', standalone((s) => (s.transport = 'sqs')), true],
  ['transport kafka', standalone((s) => (s.transport = 'kafka')), false],
  ['scaling left out (defaults)', standalone((s) => delete s.scaling), true],
  ['scaling null (defaults)', standalone((s) => (s.scaling = null)), true],
  ['minReplicas above maxReplicas', standalone((s) => (s.scaling = { minReplicas: 5, maxReplicas: 2 })), false],
  ['minReplicas above the default maxReplicas', standalone((s) => (s.scaling = { minReplicas: 51 })), false],
  ['maxReplicas 0', standalone((s) => (s.scaling = { maxReplicas: 0 })), false],
  ['queueLength 0', standalone((s) => (s.scaling = { queueLength: 0 })), false],
  ['enabled "yes"', standalone((s) => (s.scaling = { enabled: 'yes' })), false],
  ['timeout processing 0', standalone((s) => (s.timeout = { processing: 0 })), false],
  ['timeout gracefulShutdown 0', standalone((s) => (s.timeout = { gracefulShutdown: 0 })), true],
  ['timeout gracefulShutdown 1.5', standalone((s) => (s.timeout = { gracefulShutdown: 1.5 })), false],
  ['workload kind StatefulSet', standalone((s) => (wl(s).kind = 'StatefulSet')), true],
  ['workload kind Job', standalone((s) => (wl(s).kind = 'Job')), false],
  ['workload replicas -1', standalone((s) => (wl(s).replicas = -1)), false],
  ['workload without a template', standalone((s) => delete wl(s).template), false],
  ['workload template a string', standalone((s) => (wl(s).template = 'x')), false],
  ['pythonExecutable empty', standalone((s) => (wl(s).pythonExecutable = '')), false],
  ['a user container named asya-sidecar (workflow only)', standalone((s) => (podSpec(s).containers as Json[]).push({ name: 'asya-sidecar', image: 'x' })), false],
  ['no asya-runtime container (workflow only)', standalone((s) => ((podSpec(s).containers as Json[])[0]!.name = 'main')), false],
  ['two asya-runtime containers (workflow only)', standalone((s) => (podSpec(s).containers as Json[]).push({ name: 'asya-runtime', image: 'x' })), false],
  ['asya-runtime with a command (workflow only)', standalone((s) => ((podSpec(s).containers as Json[])[0]!.command = ['python'])), false],
  ['a user volume named tmp (workflow only)', standalone((s) => (podSpec(s).volumes = [{ name: 'tmp', emptyDir: {} }])), false],
  ['a template without containers (workflow only)', standalone((s) => delete podSpec(s).containers), false],
  ['a second user container', standalone((s) => (podSpec(s).containers as Json[]).push({ name: 'helper', image: 'busybox' })), true],
  ['sidecar settings', standalone((s) => (s.sidecar = { image: 'ghcr.io/asya/sidecar:1.2', imagePullPolicy: 'Always', env: [{ name: 'ASYA_LOG_LEVEL', value: 'debug' }], resources: { limits: { cpu: 1 } } })), true],
  ['sidecar image with a space', standalone((s) => (s.sidecar = { image: 'a b' })), false],
  ['sidecar pull policy Sometimes', standalone((s) => (s.sidecar = { imagePullPolicy: 'Sometimes' })), false],
  ['duplicate sidecar env names', standalone((s) => (s.sidecar = { env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] })), false],
  ['an env entry without a name', binding((s) => (rt(s).env = [{ value: '1' }])), false],
  ['env valueFrom', binding((s) => (rt(s).env = [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }])), true],
  ['runtime resources', binding((s) => (rt(s).resources = { requests: { cpu: '500m' }, limits: { memory: '1Gi' } })), true],
  ['negative runtime resources', binding((s) => (rt(s).resources = { limits: { cpu: '-1' } })), false],
  ['fractional quantity number', binding((s) => (rt(s).resources = { limits: { cpu: 0.5 } })), false],
  ['unknown fields are pruned', standalone((s) => ((s.extra = 1), (s.scaling = { advanced: { formula: 'x' } }))), true],
  ['name of 63 characters', standalone(() => {}, 'a'.repeat(63)), true],
  ['name of 64 characters', standalone(() => {}, 'a'.repeat(64)), false],
  ['name starting with a digit', standalone(() => {}, '1actor'), true],
  ['name with a dot', standalone(() => {}, 'text.processor'), false],
  ['name with upper case', standalone(() => {}, 'Actor'), false],
];

describe('what an AsyncActor may be', () => {
  it.each(TABLE)('%s', (_name, object, expectValid) => {
    expect(validateAsyncActor(object).valid).toBe(expectValid);
  });

  it("the CRD's CEL rules answer offline in their own words", () => {
    const known = Object.values(AsyncActorMessage) as string[];
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
      const result = validateAsyncActor(object);
      expect(result.valid ? [] : result.errors.filter((e) => known.includes(e.message))).not.toEqual([]);
    }
  });

  it("the seed's message, word for word", () => {
    const result = validateAsyncActor(standalone((s) => delete s.workload));
    expect(result.valid ? [] : result.errors).toContainEqual({ field: 'spec', message: "Exactly one of 'workload' or 'workloadRef' must be set" });
  });
});
