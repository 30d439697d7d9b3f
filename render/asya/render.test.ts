import { describe, expect, it } from 'vitest';
import { ACTOR_UID, actor, standaloneActor, standaloneSpec } from '../../api/asya/testing.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { renderStandalone } from './render.ts';
import { RUNTIME_SCRIPT } from './render-runtime-script.ts';

type Json = Record<string, unknown>;
const OWNER = { apiVersion: 'asya.sh/v1alpha1', kind: 'AsyncActor', name: 'text-processor', uid: ACTOR_UID, controller: true, blockOwnerDeletion: true };
const READY = ['sh', '-c', 'test -S /var/run/asya/asya-runtime.sock && test -f /var/run/asya/runtime-ready'];

const children = renderStandalone(standaloneActor());
const podSpec = (workload: AnyObject) => ((workload.spec as Json).template as Json).spec as { containers: Json[]; volumes: Json[]; terminationGracePeriodSeconds: number };
const container = (workload: AnyObject, name: string) => podSpec(workload).containers.find((c) => c.name === name)!;
const pod = podSpec(children.workload);

describe("golden render of the seed's standalone actor (KEDA on, with uid and generation)", () => {
  // Update after a deliberate change: npx vitest run activities/asya -u
  it('every child, exactly', async () => {
    await expect(`${JSON.stringify(children, null, 2)}\n`).toMatchFileSnapshot('testdata/text-processor.standalone.json');
  });

  it('the runtime script, exactly', async () => {
    await expect(RUNTIME_SCRIPT).toMatchFileSnapshot('testdata/asya_runtime.py');
  });

  it('is deterministic, key order included, whatever order the template was written in', () => {
    expect(JSON.stringify(renderStandalone(standaloneActor()))).toBe(JSON.stringify(children));
    const reordered = standaloneActor((spec) => {
      const workload = spec.workload as Json;
      const template = workload.template as Json;
      workload.template = { spec: template.spec, metadata: template.metadata };
    });
    expect(JSON.stringify(renderStandalone(reordered))).toBe(JSON.stringify(children));
  });
});

describe('checklist 2: the Deployment', () => {
  it('is named after the actor, labelled managed-by, owned by the actor, selecting its pods', () => {
    expect(children.workload.metadata).toEqual({
      name: 'text-processor',
      namespace: 'ml',
      labels: { 'asya.sh/managed-by': 'text-processor' },
      annotations: { 'asya.sh/managed-by': 'text-processor', 'asya.sh/mode': 'standalone' },
      ownerReferences: [OWNER],
    });
    expect((children.workload.spec as Json).selector).toEqual({ matchLabels: { 'asya.sh/actor': 'text-processor' } });
    expect(((children.workload.spec as Json).template as Json).metadata).toEqual({ labels: { app: 'text-processor', 'asya.sh/actor': 'text-processor' } });
  });

  it('the user container asya-runtime: the runtime command, ASYA_SOCKET_DIR, the mounts and exec probes; its own fields kept', () => {
    expect(container(children.workload, 'asya-runtime')).toEqual({
      env: [
        { name: 'ASYA_HANDLER', value: 'handlers.process' },
        { name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' },
      ],
      image: 'python:3.13',
      name: 'asya-runtime',
      resources: { requests: { cpu: '250m', memory: '256Mi' } },
      command: ['python3', '/opt/asya/asya_runtime.py'],
      volumeMounts: [
        { name: 'socket-dir', mountPath: '/var/run/asya' },
        { name: 'tmp', mountPath: '/tmp' },
        { name: 'asya-runtime', mountPath: '/opt/asya/asya_runtime.py', subPath: 'asya_runtime.py', readOnly: true },
      ],
      startupProbe: { exec: { command: READY }, initialDelaySeconds: 3, periodSeconds: 2, timeoutSeconds: 3, failureThreshold: 150 },
      livenessProbe: { exec: { command: READY }, initialDelaySeconds: 0, periodSeconds: 30, timeoutSeconds: 5, failureThreshold: 3 },
      readinessProbe: { exec: { command: READY }, initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 },
    });
  });

  it('asya-sidecar appended last, with the queue, the transport and the namespace Secret', () => {
    expect(pod.containers.map((c) => c.name)).toEqual(['asya-runtime', 'asya-sidecar']);
    expect(container(children.workload, 'asya-sidecar')).toEqual({
      name: 'asya-sidecar',
      image: 'asya-sidecar:latest',
      imagePullPolicy: 'IfNotPresent',
      env: [
        { name: 'ASYA_ACTOR_NAME', value: 'text-processor' },
        { name: 'ASYA_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'ASYA_TRANSPORT', value: 'rabbitmq' },
        { name: 'ASYA_QUEUE_NAME', value: 'asya-text-processor' },
        { name: 'ASYA_DLQ_NAME', value: 'asya-text-processor-dlq' },
        { name: 'ASYA_RUNTIME_TIMEOUT', value: '300s' },
        { name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' },
      ],
      envFrom: [{ secretRef: { name: 'asya-rabbitmq' } }],
      volumeMounts: [
        { name: 'socket-dir', mountPath: '/var/run/asya' },
        { name: 'tmp', mountPath: '/tmp' },
      ],
    });
  });

  it('the three volumes, and terminationGracePeriodSeconds from timeout.gracefulShutdown', () => {
    expect(pod.volumes).toEqual([
      { name: 'socket-dir', emptyDir: {} },
      { name: 'tmp', emptyDir: {} },
      { name: 'asya-runtime', configMap: { name: 'asya-runtime', defaultMode: 0o755 } },
    ]);
    expect(pod.terminationGracePeriodSeconds).toBe(30);
    const slow = renderStandalone(standaloneActor((s) => (s.timeout = { gracefulShutdown: 120 })));
    expect(podSpec(slow.workload).terminationGracePeriodSeconds).toBe(120);
  });

  it('replicas only without KEDA (KEDA owns the count otherwise)', () => {
    expect(children.workload.spec).not.toHaveProperty('replicas');
    const fixed = renderStandalone(standaloneActor((s) => ((s.scaling = { enabled: false }), ((s.workload as Json).replicas = 2))));
    expect((fixed.workload.spec as Json).replicas).toBe(2);
  });

  it("the user's other containers, volumes and probes are kept; sidecar settings and env overrides apply", () => {
    const custom = renderStandalone(
      standaloneActor((s) => {
        s.sidecar = { image: 'ghcr.io/asya/sidecar:1.2', imagePullPolicy: 'Always', env: [{ name: 'ASYA_RUNTIME_TIMEOUT', value: '10s' }, { name: 'ASYA_LOG_LEVEL', value: 'debug' }], resources: { limits: { memory: '64Mi' } } };
        const spec = ((s.workload as Json).template as Json).spec as { containers: Json[]; volumes?: Json[] };
        spec.containers[0]!.readinessProbe = { httpGet: { path: '/ready', port: 8080 } };
        spec.containers[0]!.env = [{ name: 'ASYA_SOCKET_DIR', value: '/elsewhere' }];
        spec.containers.unshift({ name: 'helper', image: 'busybox' });
        spec.volumes = [{ name: 'data', emptyDir: {} }];
      }),
    );
    const spec = podSpec(custom.workload);
    expect(spec.containers.map((c) => c.name)).toEqual(['helper', 'asya-runtime', 'asya-sidecar']);
    expect(spec.volumes.map((v) => v.name)).toEqual(['data', 'socket-dir', 'tmp', 'asya-runtime']);
    const runtime = container(custom.workload, 'asya-runtime');
    expect(runtime.readinessProbe).toEqual({ httpGet: { path: '/ready', port: 8080 } });
    expect(runtime.env).toEqual([{ name: 'ASYA_SOCKET_DIR', value: '/var/run/asya' }]);
    const sidecar = container(custom.workload, 'asya-sidecar');
    expect(sidecar).toMatchObject({ image: 'ghcr.io/asya/sidecar:1.2', imagePullPolicy: 'Always', resources: { limits: { memory: '64Mi' } } });
    expect((sidecar.env as Json[]).filter((e) => e.name === 'ASYA_RUNTIME_TIMEOUT')).toEqual([{ name: 'ASYA_RUNTIME_TIMEOUT', value: '10s' }]);
    expect((sidecar.env as Json[]).at(-1)).toEqual({ name: 'ASYA_LOG_LEVEL', value: 'debug' });
  });

  it('a StatefulSet: same pod template, serviceName, custom python', () => {
    const set = renderStandalone(standaloneActor((s) => Object.assign(s.workload as Json, { kind: 'StatefulSet', pythonExecutable: '/usr/local/bin/python3.13' })));
    expect(set.workload).toMatchObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { serviceName: 'text-processor' } });
    expect(container(set.workload, 'asya-runtime').command).toEqual(['/usr/local/bin/python3.13', '/opt/asya/asya_runtime.py']);
    expect(set.scaledObject?.spec).toMatchObject({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'text-processor' } });
  });
});

describe('checklist 3: the ScaledObject', () => {
  const so = children.scaledObject!;

  it('named after the actor, owned by it, annotated with the source generation', () => {
    expect(so.metadata).toEqual({
      name: 'text-processor',
      namespace: 'ml',
      labels: { 'asya.sh/managed-by': 'text-processor' },
      annotations: { 'asya.sh/source-generation': '3' },
      ownerReferences: [OWNER],
    });
  });

  it('min/max/polling/cooldown, a rabbitmq trigger on asya-<actor>, the HPA behaviour', () => {
    expect(so.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'text-processor' },
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
          metadata: { protocol: 'amqp', queueName: 'asya-text-processor', mode: 'QueueLength', value: '5' },
          authenticationRef: { name: 'asya-rabbitmq', kind: 'TriggerAuthentication' },
        },
      ],
    });
  });

  it('sqs: an aws-sqs-queue trigger on the queue, authenticated by asya-sqs', () => {
    const sqs = renderStandalone(standaloneActor((s) => ((s.transport = 'sqs'), (s.scaling = { enabled: true, queueLength: 20 }))));
    expect((sqs.scaledObject?.spec as Json).triggers).toEqual([
      { type: 'aws-sqs-queue', metadata: { queueURL: 'asya-text-processor', queueLength: '20' }, authenticationRef: { name: 'asya-sqs', kind: 'TriggerAuthentication' } },
    ]);
    expect(container(sqs.workload, 'asya-sidecar').envFrom).toEqual([{ secretRef: { name: 'asya-sqs' } }]);
  });

  it('none when scaling is disabled', () => {
    expect(renderStandalone(standaloneActor((s) => delete s.scaling)).scaledObject).toBeUndefined();
  });
});

describe('the runtime ConfigMap', () => {
  it('asya-runtime with asya_runtime.py, in the namespace, owned by no actor', () => {
    expect(children.runtimeConfigMap).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'asya-runtime', namespace: 'ml', labels: { 'app.kubernetes.io/name': 'asya-runtime', 'app.kubernetes.io/part-of': 'asya' } },
      data: { 'asya_runtime.py': RUNTIME_SCRIPT },
    });
  });

  it('the script keeps the contract with the sidecar and the probes', () => {
    expect(RUNTIME_SCRIPT).toContain('"asya-runtime.sock"');
    expect(RUNTIME_SCRIPT).toContain('"runtime-ready"');
    expect(RUNTIME_SCRIPT).toContain('ASYA_HANDLER');
  });
});

describe('offline (no uid, no namespace, no generation)', () => {
  const offline: AsyncActor = actor(standaloneSpec(), { namespace: null, uid: null });
  delete offline.metadata.generation;
  const rendered = renderStandalone(offline);

  it('ownerReferences leave the uid out; metadata the namespace; the ScaledObject its generation annotation', () => {
    const { uid: _uid, ...withoutUid } = OWNER;
    for (const object of [rendered.workload, rendered.scaledObject!]) {
      expect(object.metadata?.ownerReferences).toEqual([withoutUid]);
      expect(object.metadata).not.toHaveProperty('namespace');
    }
    expect(rendered.scaledObject?.metadata).not.toHaveProperty('annotations');
    expect(rendered.runtimeConfigMap.metadata).not.toHaveProperty('namespace');
  });
});

it('refuses a binding actor', () => {
  const binding = actor({ transport: 'rabbitmq', workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, runtime: { handler: 'a.b', targetURL: 'http://x' } });
  expect(() => renderStandalone(binding)).toThrow('renderStandalone is for standalone actors');
});
