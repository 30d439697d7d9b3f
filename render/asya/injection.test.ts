import { describe, expect, it } from 'vitest';
import { ACTOR_UID, bindingActor } from '../../api/asya/testing.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { injectionConflict, isInjected, renderBindingScaledObject, renderInjection, renderUninjection, type InjectionTarget } from './injection.ts';
import { targetUrl } from './target-url.ts';

type Json = Record<string, unknown>;
const READY = ['sh', '-c', 'test -S /var/run/asya/asya-runtime.sock && test -f /var/run/asya/runtime-ready'];

const phi3 = bindingActor();
const TARGET: InjectionTarget = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'phi-3-embeddings', namespace: 'ml' };
const URL = targetUrl(phi3.spec.runtime!, 'ml')!;
const body = renderInjection(phi3, TARGET, URL);
const containers = () => ((body.spec as Json).template as Json).spec as { containers: Json[]; volumes: Json[] };

/** KAITO's Deployment as the API server returns it, optionally with our injection merged in. */
function deployment(options: { injected?: string; labels?: Record<string, string>; annotations?: Record<string, string>; extraContainers?: Json[]; extraVolumes?: Json[]; managedFields?: Json[] } = {}): AnyObject {
  const owner = { name: 'model', image: 'mcr.microsoft.com/aks/kaito/phi-3:0.1' };
  const injected = options.injected ? containers() : { containers: [], volumes: [] };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'phi-3-embeddings',
      namespace: 'ml',
      ...(options.labels || options.injected ? { labels: { ...options.labels, ...(options.injected ? { 'asya.sh/managed-by': options.injected } : {}) } } : {}),
      ...(options.annotations ? { annotations: options.annotations } : {}),
      ...(options.managedFields ? { managedFields: options.managedFields } : {}),
      ownerReferences: [{ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'phi-3-embeddings', uid: 'w', controller: true }],
    },
    spec: {
      selector: { matchLabels: { app: 'phi-3' } },
      template: {
        metadata: { labels: { app: 'phi-3' } },
        spec: { containers: [owner, ...(options.extraContainers ?? []), ...injected.containers], volumes: [{ name: 'dshm', emptyDir: { medium: 'Memory' } }, ...(options.extraVolumes ?? []), ...injected.volumes] },
      },
    },
  };
}

/** A managedFields entry of manager `asya` owning our containers and volumes, as the API server writes it. */
function asyaManagedFields(): Json[] {
  const keyed = (names: string[]) => Object.fromEntries(names.map((n) => [`k:${JSON.stringify({ name: n })}`, { '.': {}, 'f:name': {} }]));
  return [
    { manager: 'kaito', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': keyed(['model']) } } } } },
    {
      manager: 'asya',
      operation: 'Apply',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': keyed(['asya-runtime', 'asya-sidecar']), 'f:volumes': keyed(['socket-dir', 'tmp', 'asya-runtime']) } } } },
    },
  ];
}

describe('renderInjection: the apply body for field manager asya', () => {
  // Update after a deliberate change: npx vitest run activities/asya -u
  it('golden', async () => {
    await expect(`${JSON.stringify(body, null, 2)}\n`).toMatchFileSnapshot('testdata/phi3-async.injection.json');
  });

  it('holds only what we own: identity, our label and annotations, two containers and three volumes', () => {
    expect(Object.keys(body)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(body.metadata).toEqual({
      name: 'phi-3-embeddings',
      namespace: 'ml',
      labels: { 'asya.sh/managed-by': 'phi3-async' },
      annotations: { 'asya.sh/managed-by': 'phi3-async', 'asya.sh/mode': 'binding' },
    });
    expect(Object.keys(body.spec as Json)).toEqual(['template']);
    expect(Object.keys((body.spec as Json).template as Json)).toEqual(['spec']);
    expect(Object.keys(containers())).toEqual(['containers', 'volumes']);
    expect(containers().containers.map((c) => c.name)).toEqual(['asya-runtime', 'asya-sidecar']);
    expect(containers().volumes.map((v) => v.name)).toEqual(['socket-dir', 'tmp', 'asya-runtime']);
  });

  it('no ownerReference and no injected-at timestamp', () => {
    expect(body.metadata).not.toHaveProperty('ownerReferences');
    expect(JSON.stringify(body)).not.toContain('injected-at');
    expect(JSON.stringify(renderInjection(phi3, TARGET, URL))).toBe(JSON.stringify(body));
  });

  it('asya-runtime: the adapter image and handler, ASYA_TARGET_URL as the derived Service URL, the runtime wiring', () => {
    expect(containers().containers[0]).toEqual({
      name: 'asya-runtime',
      image: 'asya-rest-adapter:latest',
      command: ['python3', '/opt/asya/asya_runtime.py'],
      env: [
        { name: 'ASYA_HANDLER', value: 'adapters.kaito_openai.forward' },
        { name: 'ASYA_TARGET_URL', value: 'http://phi-3-embeddings.ml.svc.cluster.local:80/v1/chat/completions' },
        { name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' },
        { name: 'ASYA_ENABLE_VALIDATION', value: 'false' },
      ],
      volumeMounts: [
        { name: 'socket-dir', mountPath: '/var/run/asya' },
        { name: 'tmp', mountPath: '/tmp' },
        { name: 'asya-runtime', mountPath: '/opt/asya/asya_runtime.py', subPath: 'asya_runtime.py', readOnly: true },
      ],
      startupProbe: { exec: { command: READY }, initialDelaySeconds: 3, periodSeconds: 2, timeoutSeconds: 3, failureThreshold: 150 },
      livenessProbe: { exec: { command: READY }, initialDelaySeconds: 0, periodSeconds: 30, timeoutSeconds: 5, failureThreshold: 3 },
      readinessProbe: { exec: { command: READY }, initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 },
    });
    expect(containers().containers[1]).toMatchObject({ name: 'asya-sidecar', envFrom: [{ secretRef: { name: 'asya-rabbitmq' } }] });
  });

  it('runtime.env overrides by name and adds; resources pass through', () => {
    const custom = bindingActor((s) => Object.assign(s.runtime as Json, { env: [{ name: 'ASYA_ENABLE_VALIDATION', value: 'true' }, { name: 'MODEL', value: 'phi-3' }], resources: { limits: { cpu: 1 } }, pythonExecutable: 'python3.12' }));
    const runtime = (((renderInjection(custom, TARGET, URL).spec as Json).template as Json).spec as { containers: Json[] }).containers[0]!;
    expect(runtime.env).toEqual([
      { name: 'ASYA_HANDLER', value: 'adapters.kaito_openai.forward' },
      { name: 'ASYA_TARGET_URL', value: URL },
      { name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' },
      { name: 'ASYA_ENABLE_VALIDATION', value: 'true' },
      { name: 'MODEL', value: 'phi-3' },
    ]);
    expect(runtime).toMatchObject({ resources: { limits: { cpu: 1 } }, command: ['python3.12', '/opt/asya/asya_runtime.py'] });
  });

  it('a StatefulSet target keeps its apiVersion and kind', () => {
    const set = renderInjection(phi3, { ...TARGET, kind: 'StatefulSet', name: 'vllm' }, URL);
    expect([set.apiVersion, set.kind, set.metadata?.name]).toEqual(['apps/v1', 'StatefulSet', 'vllm']);
  });
});

describe('renderUninjection', () => {
  it('the empty intent: identity only, so the apply releases everything asya owns', () => {
    expect(renderUninjection(TARGET)).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'phi-3-embeddings', namespace: 'ml' } });
  });
});

describe('injectionConflict (checklist 6)', () => {
  it('none on a fresh workload, or one we injected', () => {
    expect(injectionConflict(deployment(), 'phi3-async')).toBeUndefined();
    expect(injectionConflict(deployment({ injected: 'phi3-async' }), 'phi3-async')).toBeUndefined();
    expect(injectionConflict(deployment({ injected: 'phi3-async', managedFields: asyaManagedFields() }), 'phi3-async')).toBeUndefined();
  });

  it('AlreadyManaged: another actor’s label or annotation', () => {
    expect(injectionConflict(deployment({ injected: 'other-actor' }), 'phi3-async')).toBe('AlreadyManaged');
    expect(injectionConflict(deployment({ annotations: { 'asya.sh/managed-by': 'other-actor' } }), 'phi3-async')).toBe('AlreadyManaged');
  });

  it('ContainerNameConflict: an asya-runtime or asya-sidecar we did not put there', () => {
    expect(injectionConflict(deployment({ extraContainers: [{ name: 'asya-runtime', image: 'theirs' }] }), 'phi3-async')).toBe('ContainerNameConflict');
    expect(injectionConflict(deployment({ extraContainers: [{ name: 'asya-sidecar', image: 'theirs' }] }), 'phi3-async')).toBe('ContainerNameConflict');
  });

  it('by managedFields when present: our label is not enough if asya does not own the container', () => {
    const kaitoOnly = asyaManagedFields().slice(0, 1);
    expect(injectionConflict(deployment({ labels: { 'asya.sh/managed-by': 'phi3-async' }, extraContainers: [{ name: 'asya-runtime', image: 'x' }], managedFields: kaitoOnly }), 'phi3-async')).toBe(
      'ContainerNameConflict',
    );
  });

  it('ContainerNameConflict too for a volume of one of our names that is theirs (our containers mount it by name)', () => {
    expect(injectionConflict(deployment({ extraVolumes: [{ name: 'tmp', emptyDir: { medium: 'Memory' } }] }), 'phi3-async')).toBe('ContainerNameConflict');
  });
});

describe('isInjected', () => {
  it('both containers and all three volumes', () => {
    expect(isInjected(deployment({ injected: 'phi3-async' }))).toBe(true);
    expect(isInjected(deployment())).toBe(false);
  });

  it('a container or volume stripped (by the owner re-rendering) is not injected', () => {
    const stripped = deployment({ injected: 'phi3-async' });
    const pod = ((stripped.spec as Json).template as Json).spec as { containers: Json[]; volumes: Json[] };
    pod.containers = pod.containers.filter((c) => c.name !== 'asya-sidecar');
    expect(isInjected(stripped)).toBe(false);
    const noVolume = deployment({ injected: 'phi3-async' });
    const pod2 = ((noVolume.spec as Json).template as Json).spec as { volumes: Json[] };
    pod2.volumes = pod2.volumes.filter((v) => v.name !== 'socket-dir');
    expect(isInjected(noVolume)).toBe(false);
    expect(isInjected({})).toBe(false);
  });
});

describe('renderBindingScaledObject', () => {
  it('a ModelDeployment scales itself through its /scale subresource', () => {
    const md = bindingActor((s) => (s.workloadRef = { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'gemma-cpu' }));
    const so = renderBindingScaledObject(md, { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'gemma-cpu' });
    expect(so.metadata).toMatchObject({ name: 'phi3-async', namespace: 'ml', ownerReferences: [{ kind: 'AsyncActor', name: 'phi3-async', uid: ACTOR_UID, controller: true }] });
    expect(so.spec).toMatchObject({
      scaleTargetRef: { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'gemma-cpu' },
      minReplicaCount: 0,
      maxReplicaCount: 100,
      triggers: [{ type: 'rabbitmq', metadata: { queueName: 'asya-phi3-async' } }],
    });
  });

  it('a Deployment target is scaled directly', () => {
    const so = renderBindingScaledObject(phi3, TARGET);
    expect((so.spec as Json).scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'phi-3-embeddings' });
  });
});

it('refuses a standalone actor', () => {
  const standalone = { ...phi3, spec: { ...phi3.spec, runtime: undefined } };
  expect(() => renderInjection(standalone, TARGET, URL)).toThrow('renderInjection is for binding actors');
});
