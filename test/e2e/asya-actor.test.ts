// AsyncActor (seed 002, issue 12) end to end on the real stack and a real RabbitMQ broker: the API
// server's rules, standalone mode's children, binding to a Deployment and to a ModelDeployment, the
// conflict loop with its backoff, and the refusals. Binding to a KAITO Workspace (the test plays KAITO)
// is in asya-workspace.test.ts, the crash in asya-crash.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASYA_GROUP, ASYA_VERSION, ASYNC_ACTOR_PLURAL } from '../../api/asya/constants.ts';
import { AsyncActorMessage } from '../../api/asya/messages.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { createDeployment, deleteDeployment, eventsFor, example, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import {
  actorExample,
  applyAs,
  asyaMarks,
  bindingActor,
  conditionOf,
  containerNames,
  containerOf,
  containersManagedBy,
  containersOf,
  createActor,
  deleteActor,
  DEPLOYMENTS,
  envOf,
  getActor,
  getConfigMap,
  getDeployment,
  getScaledObject,
  hasCondition,
  isInjected,
  plainDeployment,
  podTemplate,
  queueDepth,
  rejectionOf,
  replaceContainers,
  waitActorGone,
  waitForActor,
  waitQuiet,
  type Container,
} from '../support/asya.ts';

/** The owner of the workloads the binding tests create: its own field manager, never `asya`. */
const OWNER = 'the-owner';
/** The backoff unit this file's controller uses: conflict n waits n × 1 s. */
const BACKOFF_MS = 1_000;

const READY_CHECK = ['sh', '-c', 'test -S /var/run/asya/asya-runtime.sock && test -f /var/run/asya/runtime-ready'];
/** As stored: the API server leaves out a zero initialDelaySeconds. */
const probe = (initialDelaySeconds: number, periodSeconds: number, timeoutSeconds: number, failureThreshold: number) => ({
  exec: { command: READY_CHECK },
  ...(initialDelaySeconds ? { initialDelaySeconds } : {}),
  periodSeconds,
  timeoutSeconds,
  failureThreshold,
});
const RUNTIME_MOUNTS = [
  { name: 'socket-dir', mountPath: '/var/run/asya' },
  { name: 'tmp', mountPath: '/tmp' },
  { name: 'asya-runtime', mountPath: '/opt/asya/asya_runtime.py', subPath: 'asya_runtime.py', readOnly: true },
];
const VOLUMES = [
  { name: 'socket-dir', emptyDir: {} },
  { name: 'tmp', emptyDir: {} },
  { name: 'asya-runtime', configMap: { name: 'asya-runtime', defaultMode: 0o755 } },
];

function sidecarOf(actor: string) {
  return {
    name: 'asya-sidecar',
    image: 'asya-sidecar:latest',
    imagePullPolicy: 'IfNotPresent',
    env: [
      { name: 'ASYA_ACTOR_NAME', value: actor },
      { name: 'ASYA_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'ASYA_TRANSPORT', value: 'rabbitmq' },
      { name: 'ASYA_QUEUE_NAME', value: `asya-${actor}` },
      { name: 'ASYA_DLQ_NAME', value: `asya-${actor}-dlq` },
      { name: 'ASYA_RUNTIME_TIMEOUT', value: '300s' },
      { name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' },
    ],
    envFrom: [{ secretRef: { name: 'asya-rabbitmq' } }],
    volumeMounts: RUNTIME_MOUNTS.slice(0, 2),
  };
}

const ownerReferenceTo = (actor: AsyncActor) => ({ apiVersion: 'asya.sh/v1alpha1', kind: 'AsyncActor', name: actor.metadata.name, uid: actor.metadata.uid, controller: true, blockOwnerDeletion: true });

describe.concurrent('AsyncActor', () => {
  let kube: TestKube;
  let ctl: TestController;
  let ns: string;
  beforeAll(async () => {
    kube = await testKube('e2e-asya');
    ns = kube.namespace;
    ctl = await startTestController({ namespaces: [ns], settings: { conflictBackoff: `${BACKOFF_MS / 1000}s` } });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  /** A Deployment of the owner's, created under the owner's field manager; its live form. */
  const ownerDeployment = async (name: string, containers?: Container[]) => {
    await applyAs(DEPLOYMENTS, plainDeployment(ns, name, containers), OWNER);
    return (await getDeployment(ns, name))!;
  };

  describe('the API server', () => {
    const standalone = (name: string) => actorExample('async-actor-standalone.yaml', ns, name);
    const runtime = { handler: 'adapters.kaito_openai.forward', targetURL: 'http://server:80' };
    const workloadRef = { apiVersion: 'apps/v1', kind: 'Deployment' as const, name: 'somewhere' };
    const exactlyOne = { field: 'spec', reason: 'FieldValueInvalid', message: `Invalid value: ${AsyncActorMessage.exactlyOneWorkload}` };

    it('rejects both workload and workloadRef with the seed message', async () => {
      const actor = standalone('cel-both');
      actor.spec.workloadRef = workloadRef;
      const { code, causes } = await rejectionOf(actor);
      expect(code).toBe(422);
      expect(causes).toContainEqual(exactlyOne);
    });

    it('rejects neither workload nor workloadRef with the seed message', async () => {
      const actor = standalone('cel-neither');
      delete actor.spec.workload;
      const { code, causes } = await rejectionOf(actor);
      expect(code).toBe(422);
      expect(causes).toEqual([exactlyOne]);
    });

    it('rejects workloadRef without runtime', async () => {
      const actor = bindingActor(ns, 'cel-no-runtime', workloadRef);
      delete actor.spec.runtime;
      const { code, causes } = await rejectionOf(actor);
      expect(code).toBe(422);
      expect(causes).toEqual([{ field: 'spec.runtime', reason: 'FieldValueRequired', message: `Required value: ${AsyncActorMessage.runtimeRequired}` }]);
    });

    it('rejects runtime with workload', async () => {
      const actor = standalone('cel-runtime');
      actor.spec.runtime = runtime as NonNullable<AsyncActor['spec']['runtime']>;
      const { code, causes } = await rejectionOf(actor);
      expect(code).toBe(422);
      expect(causes).toEqual([{ field: 'spec.runtime', reason: 'FieldValueForbidden', message: `Forbidden: ${AsyncActorMessage.runtimeForbidden}` }]);
    });

    it('accepts each mode alone', async () => {
      const bound = bindingActor(ns, uniqueName('cel-ok'), workloadRef, runtime.targetURL);
      bound.spec.scaling = { ...bound.spec.scaling, enabled: false };
      await createActor(bound);
      expect(await getActor(ns, bound.metadata.name)).toBeDefined();
      await deleteActor(ns, bound.metadata.name);
      await waitActorGone(ns, bound.metadata.name);
    });
  });

  it('standalone: its Deployment, ScaledObject and runtime ConfigMap exactly; queues on the broker; deletion removes them', async () => {
    const name = uniqueName('standalone');
    await createActor(actorExample('async-actor-standalone.yaml', ns, name));
    const actor = await waitForActor(ns, name, 'workload and transport ready', (a) => hasCondition('TransportReady', 'True', 'QueuesDeclared')(a) && conditionOf(a, 'ScalingReady')?.status === 'True');
    expect(actor.status).toMatchObject({ mode: 'Standalone', resolvedTarget: `Deployment/${ns}/${name}` });
    expect(conditionOf(actor, 'ScalingReady')?.reason).toBe('ScaledObjectApplied');
    expect(actor.metadata.finalizers).toEqual(['asya.sh/finalizer']);

    const workload = (await getDeployment(ns, name))!;
    expect(workload.metadata?.ownerReferences).toEqual([ownerReferenceTo(actor)]);
    expect(workload.metadata?.labels).toEqual({ 'asya.sh/managed-by': name });
    expect(workload.metadata?.annotations).toMatchObject({ 'asya.sh/managed-by': name, 'asya.sh/mode': 'standalone' });
    expect(workload.spec).toMatchObject({ replicas: 1, selector: { matchLabels: { 'asya.sh/actor': name } } });
    const template = podTemplate(workload);
    expect(template.metadata?.labels).toEqual({ app: 'text-processor', 'asya.sh/actor': name });
    expect(template.spec?.terminationGracePeriodSeconds).toBe(30);
    expect(containerNames(workload)).toEqual(['asya-runtime', 'asya-sidecar']);
    expect(containerOf(workload, 'asya-runtime')).toMatchObject({
      image: 'python:3.13',
      command: ['python3', '/opt/asya/asya_runtime.py'],
      env: [
        { name: 'ASYA_HANDLER', value: 'handlers.process' },
        { name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' },
      ],
      resources: { requests: { cpu: '250m', memory: '256Mi' } },
      volumeMounts: RUNTIME_MOUNTS,
      startupProbe: probe(3, 2, 3, 150),
      livenessProbe: probe(0, 30, 5, 3),
      readinessProbe: probe(0, 10, 3, 3),
    });
    expect(containerOf(workload, 'asya-sidecar')).toMatchObject(sidecarOf(name));
    expect(template.spec?.volumes).toEqual(VOLUMES);

    const scaledObject = (await getScaledObject(ns, name))!;
    expect(scaledObject.metadata?.ownerReferences).toEqual([ownerReferenceTo(actor)]);
    expect(scaledObject.metadata?.labels).toEqual({ 'asya.sh/managed-by': name });
    expect(scaledObject.metadata?.annotations).toEqual({ 'asya.sh/source-generation': String(actor.metadata.generation) });
    expect(scaledObject.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicaCount: 0,
      maxReplicaCount: 10,
      pollingInterval: 10,
      cooldownPeriod: 60,
      advanced: {
        horizontalPodAutoscalerConfig: {
          behavior: {
            scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
            scaleUp: {
              stabilizationWindowSeconds: 0,
              selectPolicy: 'Max',
              policies: [
                { type: 'Pods', value: 10, periodSeconds: 60 },
                { type: 'Percent', value: 100, periodSeconds: 60 },
              ],
            },
          },
        },
      },
      triggers: [
        {
          type: 'rabbitmq',
          metadata: { protocol: 'amqp', queueName: `asya-${name}`, mode: 'QueueLength', value: '5' },
          authenticationRef: { name: 'asya-rabbitmq', kind: 'TriggerAuthentication' },
        },
      ],
    });

    // Shared by every actor of the namespace, so owned by none.
    const configMap = (await getConfigMap(ns, 'asya-runtime'))!;
    expect(configMap.metadata?.ownerReferences).toBeUndefined();
    expect(Object.keys(configMap.data as object)).toEqual(['asya_runtime.py']);
    expect((configMap.data as Record<string, string>)['asya_runtime.py']).toContain('ASYA_SOCKET_DIR');

    expect(await queueDepth(`asya-${name}`)).toBe(0);
    expect(await queueDepth(`asya-${name}-dlq`)).toBe(0);

    await deleteActor(ns, name);
    await waitActorGone(ns, name);
    expect(await queueDepth(`asya-${name}`)).toBeUndefined();
    expect(await queueDepth(`asya-${name}-dlq`)).toBeUndefined();
    await eventually('the ScaledObject gone', async () => (await getScaledObject(ns, name)) === undefined);
    await eventually('the Deployment collected', async () => (await getDeployment(ns, name)) === undefined);
    // Shared: it stays while another actor of the namespace uses it, and goes with the last one (below).
    const others = await new CustomObjects(kube.kc).list({ group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL, namespace: ns });
    if (others.length > 0) expect(await getConfigMap(ns, 'asya-runtime')).toBeDefined();
  });

  it('standalone: disabling scaling deletes the ScaledObject and fixes the replica count', async () => {
    const name = uniqueName('unscaled');
    const actor = actorExample('async-actor-standalone.yaml', ns, name);
    await createActor(actor);
    await eventually('the ScaledObject', () => getScaledObject(ns, name));
    actor.spec.workload = { ...actor.spec.workload!, replicas: 2 };
    actor.spec.scaling = { ...actor.spec.scaling, enabled: false };
    await createActor(actor);
    const updated = await waitForActor(ns, name, 'scaling disabled', hasCondition('ScalingReady', 'True', 'ScalingDisabled'));
    expect(updated.status?.observedGeneration).toBe(updated.metadata.generation);
    expect(await getScaledObject(ns, name)).toBeUndefined();
    expect((await getDeployment(ns, name))?.spec).toMatchObject({ replicas: 2 });

    await deleteActor(ns, name);
    await waitActorGone(ns, name);
  });

  it('binding to a Deployment: injects by server-side apply as `asya` without touching the owner\'s container; deletion restores its spec exactly', async () => {
    const target = uniqueName('owned-elsewhere');
    const name = uniqueName('binder');
    const before = await ownerDeployment(target);
    const actor = bindingActor(ns, name, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:80/v1`);
    await createActor(actor);
    const bound = await waitForActor(ns, name, 'injected', hasCondition('RuntimeInjected', 'True', 'Injected'));
    expect(bound.status).toMatchObject({ mode: 'Binding', resolvedTarget: `Deployment/${ns}/${target}`, runtimeInjected: true, conflictCount: 0 });
    expect(conditionOf(bound, 'TargetResolved')).toMatchObject({ status: 'True', reason: 'Resolved' });

    const injected = (await getDeployment(ns, target))!;
    expect(containerNames(injected)).toEqual(['server', 'asya-runtime', 'asya-sidecar']);
    expect(containerOf(injected, 'server')).toEqual(containerOf(before, 'server'));
    expect(containersManagedBy(injected, 'asya')).toEqual(['asya-runtime', 'asya-sidecar']);
    expect(containersManagedBy(injected, OWNER)).toEqual(['server']);
    expect(injected.metadata?.labels).toEqual({ 'asya.sh/managed-by': name });
    expect(injected.metadata?.annotations).toMatchObject({ 'asya.sh/managed-by': name, 'asya.sh/mode': 'binding' });
    expect(injected.metadata?.ownerReferences).toBeUndefined();
    // The owner's pod labels and selector stay the owner's.
    expect(podTemplate(injected).metadata).toEqual(podTemplate(before).metadata);
    const runtime = containerOf(injected, 'asya-runtime');
    expect(runtime).toMatchObject({
      image: 'asya-rest-adapter:latest',
      command: ['python3', '/opt/asya/asya_runtime.py'],
      env: [
        { name: 'ASYA_HANDLER', value: 'adapters.kaito_openai.forward' },
        { name: 'ASYA_TARGET_URL', value: `http://${target}:80/v1` },
        { name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' },
        { name: 'ASYA_ENABLE_VALIDATION', value: 'false' },
      ],
      volumeMounts: RUNTIME_MOUNTS,
      startupProbe: probe(3, 2, 3, 150),
      livenessProbe: probe(0, 30, 5, 3),
      readinessProbe: probe(0, 10, 3, 3),
    });
    expect(containerOf(injected, 'asya-sidecar')).toMatchObject(sidecarOf(name));
    expect(podTemplate(injected).spec?.volumes).toEqual(VOLUMES);
    // KEDA scales the bound Deployment.
    const scaledObject = (await getScaledObject(ns, name))!;
    expect(scaledObject.spec).toMatchObject({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, minReplicaCount: 0, maxReplicaCount: 3, cooldownPeriod: 300 });
    expect(scaledObject.metadata?.ownerReferences).toEqual([ownerReferenceTo(bound)]);
    expect((await eventsFor(ns, name)).map((e) => e.reason)).toContain('RuntimeInjected');

    await deleteActor(ns, name);
    await waitActorGone(ns, name);
    const released = (await getDeployment(ns, target))!;
    expect(podTemplate(released)).toEqual(podTemplate(before));
    expect(released.metadata?.labels).toEqual(before.metadata?.labels);
    expect(asyaMarks(released)).toEqual([]);
    expect(released.metadata?.ownerReferences).toBeUndefined();
    expect(containersManagedBy(released, 'asya')).toEqual([]);
    expect(await getScaledObject(ns, name)).toBeUndefined();
    expect(await queueDepth(`asya-${name}`)).toBeUndefined();
  });

  it('binding to a ModelDeployment: resolves it to its KAITO Workspace\'s Deployment, forwards to its endpoint, and KEDA scales the ModelDeployment', async () => {
    const mdName = uniqueName('gemma');
    const name = uniqueName('gemma-async');
    await createDeployment(example('cpu-gguf-kaito.yaml', ns, (m) => (m.metadata.name = mdName)));
    const md = await waitForDeployment(ns, mdName, 'its Workspace and endpoint', (m) => !!m.status?.provider?.resourceName && !!m.status?.endpoint?.service, 90_000);
    expect(md.status?.provider?.resourceKind).toBe('Workspace');
    const workspace = md.status!.provider!.resourceName!;
    const before = await eventually('KAITO\'s Deployment', () => getDeployment(ns, workspace));
    expect(before.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Workspace', name: workspace, controller: true });

    const actor = actorExample('async-actor-binding.yaml', ns, name);
    actor.spec.workloadRef = { ...actor.spec.workloadRef!, name: mdName };
    await createActor(actor);
    const bound = await waitForActor(ns, name, 'injected', hasCondition('RuntimeInjected', 'True', 'Injected'), 90_000);
    expect(bound.status).toMatchObject({ mode: 'Binding', resolvedTarget: `Deployment/${ns}/${workspace}`, runtimeInjected: true });
    expect(conditionOf(bound, 'TargetResolved')?.message).toBe(`ModelDeployment ${ns}/${mdName} resolves to Deployment/${ns}/${workspace}`);

    const injected = (await getDeployment(ns, workspace))!;
    expect(containerNames(injected)).toEqual([...containerNames(before), 'asya-runtime', 'asya-sidecar']);
    for (const c of containersOf(before)) expect(containerOf(injected, c.name)).toEqual(c);
    expect(containersManagedBy(injected, 'asya')).toEqual(['asya-runtime', 'asya-sidecar']);
    expect(injected.metadata?.ownerReferences).toEqual(before.metadata?.ownerReferences);
    expect(envOf(containerOf(injected, 'asya-runtime'), 'ASYA_TARGET_URL')).toBe(`http://${md.status!.endpoint!.service}.${ns}.svc.cluster.local:${md.status!.endpoint!.port}`);
    const scaledObject = (await getScaledObject(ns, name))!;
    expect((scaledObject.spec as { scaleTargetRef: unknown }).scaleTargetRef).toEqual({ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: mdName });

    await deleteActor(ns, name);
    await waitActorGone(ns, name);
    const released = (await getDeployment(ns, workspace))!;
    expect(podTemplate(released)).toEqual(podTemplate(before));
    expect(asyaMarks(released)).toEqual([]);
    expect(released.metadata?.ownerReferences).toEqual(before.metadata?.ownerReferences);
    await deleteDeployment(ns, mdName);
    await waitGone(ns, mdName, 90_000);
  });

  it('conflicts: the owner stripping the containers six times backs off n × the unit, then stops with ConflictLoopDetected until the spec changes', async () => {
    const target = uniqueName('contested');
    const name = uniqueName('persistent');
    const original = await ownerDeployment(target);
    const ownersContainers = containersOf(original);
    const actor = bindingActor(ns, name, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:80`);
    actor.spec.scaling = { ...actor.spec.scaling, enabled: false };
    await createActor(actor);
    let live = await waitForActor(ns, name, 'injected', hasCondition('RuntimeInjected', 'True'));

    for (let n = 1; n <= 5; n++) {
      await waitQuiet(live);
      const strippedAt = Date.now();
      const stripped = await replaceContainers(ns, target, ownersContainers, OWNER);
      expect(containerNames(stripped)).toEqual(['server']);
      const reinjected = await eventually(`re-injection after conflict ${n}`, async () => isInjected(await getDeployment(ns, target)) && Date.now());
      // The backoff is honoured: conflict n waits at least n units after it was seen.
      expect(reinjected - strippedAt).toBeGreaterThanOrEqual(n * BACKOFF_MS);
      live = await waitForActor(ns, name, `conflict ${n} counted and re-injected`, (a) => a.status?.conflictCount === n && hasCondition('RuntimeInjected', 'True')(a));
      expect(live.status?.lastConflictTime).toBeDefined();
      expect(Date.parse(live.status!.lastConflictTime!) + n * BACKOFF_MS).toBeLessThanOrEqual(reinjected);
      expect(containerNames(await getDeployment(ns, target))).toEqual(['server', 'asya-runtime', 'asya-sidecar']);
    }

    await waitQuiet(live);
    await replaceContainers(ns, target, ownersContainers, OWNER);
    const parked = await waitForActor(ns, name, 'the conflict loop detected', hasCondition('RuntimeInjected', 'False', 'ConflictLoopDetected'));
    expect(parked.status).toMatchObject({ conflictCount: 6, runtimeInjected: false, status: 'Conflict' });
    expect((await eventsFor(ns, name)).map((e) => e.reason)).toEqual(expect.arrayContaining(['InjectionConflict', 'ConflictLoopDetected']));
    // No more re-injection: not after the backoff the next conflict would have had, nor after the owner writes again.
    const strippedDeployment = (await getDeployment(ns, target))!;
    await new Promise((r) => setTimeout(r, 7 * BACKOFF_MS));
    const rewritten = plainDeployment(ns, target);
    rewritten.metadata!.annotations = { touched: 'yes' };
    await applyAs(DEPLOYMENTS, rewritten, OWNER);
    await waitQuiet(parked);
    const still = (await getDeployment(ns, target))!;
    expect(containerNames(still)).toEqual(['server']);
    expect(still.spec).toEqual(strippedDeployment.spec);
    expect(conditionOf((await getActor(ns, name))!, 'RuntimeInjected')?.reason).toBe('ConflictLoopDetected');

    // A spec change resumes injection.
    actor.spec.runtime = { ...actor.spec.runtime!, env: [{ name: 'RESUMED', value: 'yes' }] };
    await createActor(actor);
    const resumed = await waitForActor(ns, name, 're-injected after the spec change', (a) => a.status?.observedGeneration === a.metadata.generation && hasCondition('RuntimeInjected', 'True')(a));
    expect(resumed.status?.conflictCount).toBe(0);
    const after = (await getDeployment(ns, target))!;
    expect(containerNames(after)).toEqual(['server', 'asya-runtime', 'asya-sidecar']);
    expect(envOf(containerOf(after, 'asya-runtime'), 'RESUMED')).toBe('yes');
    // Resuming is no conflict: the five re-injections were the only ones.
    expect((await eventsFor(ns, name)).filter((e) => e.reason === 'InjectionConflict')).toHaveLength(5);

    await deleteActor(ns, name);
    await waitActorGone(ns, name);
    expect(containersOf(await getDeployment(ns, target))).toEqual(containersOf(original));
  });

  it('a second actor on the same target is refused (AlreadyManaged) and leaves the first one\'s injection alone, also when deleted', async () => {
    const target = uniqueName('shared');
    const first = uniqueName('first');
    const second = uniqueName('second');
    await ownerDeployment(target);
    await createActor(bindingActor(ns, first, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:80`));
    await waitForActor(ns, first, 'injected', hasCondition('RuntimeInjected', 'True'));
    const injected = (await getDeployment(ns, target))!;

    await createActor(bindingActor(ns, second, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:81`));
    const refused = await waitForActor(ns, second, 'refused', hasCondition('RuntimeInjected', 'False', 'AlreadyManaged'));
    expect(conditionOf(refused, 'RuntimeInjected')?.message).toBe(`Deployment/${ns}/${target} is already managed by AsyncActor '${first}'`);
    expect(refused.status).toMatchObject({ runtimeInjected: false, status: 'Conflict' });
    expect(await getScaledObject(ns, second)).toBeUndefined();

    await deleteActor(ns, second);
    await waitActorGone(ns, second);
    const afterSecond = (await getDeployment(ns, target))!;
    expect(podTemplate(afterSecond)).toEqual(podTemplate(injected));
    expect(afterSecond.metadata?.labels).toEqual({ 'asya.sh/managed-by': first });
    expect(envOf(containerOf(afterSecond, 'asya-runtime'), 'ASYA_TARGET_URL')).toBe(`http://${target}:80`);
    expect(conditionOf((await getActor(ns, first))!, 'RuntimeInjected')?.status).toBe('True');

    await deleteActor(ns, first);
    await waitActorGone(ns, first);
    expect(containerNames(await getDeployment(ns, target))).toEqual(['server']);
  });

  it('an actor in Conflict binds as soon as the holder is deleted, not at its resync', async () => {
    const target = uniqueName('handover');
    const holder = uniqueName('holder');
    const waiting = uniqueName('waiting');
    await ownerDeployment(target);
    await createActor(bindingActor(ns, holder, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:80`));
    await waitForActor(ns, holder, 'injected', hasCondition('RuntimeInjected', 'True'));
    await createActor(bindingActor(ns, waiting, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:81`));
    await waitForActor(ns, waiting, 'refused', hasCondition('RuntimeInjected', 'False', 'AlreadyManaged'));

    await deleteActor(ns, holder);
    await waitActorGone(ns, holder);
    // The resync is a minute here (TEST_SETTINGS): binding within seconds is the holder's removal waking it.
    const bound = await waitForActor(ns, waiting, 'bound after the holder left', hasCondition('RuntimeInjected', 'True'), 15_000);
    expect(bound.status).toMatchObject({ runtimeInjected: true });
    const deployment = (await getDeployment(ns, target))!;
    expect(deployment.metadata?.labels).toEqual({ 'asya.sh/managed-by': waiting });
    expect(envOf(containerOf(deployment, 'asya-runtime'), 'ASYA_TARGET_URL')).toBe(`http://${target}:81`);

    await deleteActor(ns, waiting);
    await waitActorGone(ns, waiting);
  });

  it('a target with a container of its own named asya-runtime is refused (ContainerNameConflict) and left as it is', async () => {
    const target = uniqueName('squatted');
    const name = uniqueName('squatter');
    const before = await ownerDeployment(target, [
      { name: 'server', image: 'nginx:1.27' },
      { name: 'asya-runtime', image: 'someone-elses:1' },
    ]);
    await createActor(bindingActor(ns, name, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:80`));
    const refused = await waitForActor(ns, name, 'refused', hasCondition('RuntimeInjected', 'False', 'ContainerNameConflict'));
    expect(refused.status?.runtimeInjected).toBe(false);
    const live = (await getDeployment(ns, target))!;
    expect(podTemplate(live)).toEqual(podTemplate(before));
    expect(asyaMarks(live)).toEqual([]);

    await deleteActor(ns, name);
    await waitActorGone(ns, name);
    const after = (await getDeployment(ns, target))!;
    expect(podTemplate(after)).toEqual(podTemplate(before));
    expect(containersManagedBy(after, OWNER)).toEqual(['asya-runtime', 'server']);
  });
});

describe('the shared asya-runtime ConfigMap', () => {
  let kube: TestKube;
  let ctl: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-asya-cm');
    ctl = await startTestController({ namespaces: [kube.namespace] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  it('stays while an actor of the namespace uses it and goes with the last one', async () => {
    const ns = kube.namespace;
    const [first, second] = [uniqueName('cm-a'), uniqueName('cm-b')];
    for (const name of [first, second]) await createActor(actorExample('async-actor-standalone.yaml', ns, name));
    for (const name of [first, second]) await waitForActor(ns, name, 'its workload applied', (a) => conditionOf(a, 'WorkloadReady') !== undefined);
    expect(await getConfigMap(ns, 'asya-runtime')).toBeDefined();

    await deleteActor(ns, first);
    await waitActorGone(ns, first);
    expect(await getConfigMap(ns, 'asya-runtime')).toBeDefined();

    await deleteActor(ns, second);
    await waitActorGone(ns, second);
    expect(await getConfigMap(ns, 'asya-runtime')).toBeUndefined();
    expect((await eventsFor(ns, second)).find((e) => e.reason === 'Released')?.message).toContain(`deleted ConfigMap asya-runtime (no other AsyncActor in ${ns} uses it)`);
  });
});
