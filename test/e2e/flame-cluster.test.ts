// FlameCluster (seed 004) end to end on the real stack, with the pod-readiness simulator as kubelet:
// what one apply creates, field by field (research 3d items 1-5), status from the pods, invalid specs
// and deletion by Kubernetes' garbage collector.
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_FILE_KEY, FLAME_CLUSTER_LABEL, POD_INDEX_LABEL } from '../../api/flame/constants.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { eventually, temporalClient, testKube, type TestKube } from '../support/env.ts';
import {
  admissionError,
  childrenOf,
  configHashOf,
  createFlameCluster,
  deleteFlameCluster,
  flameExample,
  flameWorkflowId,
  getFlameCluster,
  namesOf,
  podNames,
  runningFlameCluster,
  settled,
  simulatePod,
  waitForFlameCluster,
} from '../support/flame.ts';

describe.concurrent('FlameCluster', () => {
  let kube: TestKube;
  let ctl: TestController;
  let client: Client;
  let closeClient: () => Promise<void>;
  beforeAll(async () => {
    kube = await testKube('e2e-flame');
    ctl = await startTestController({ namespaces: [kube.namespace] });
    const t = await temporalClient();
    client = t.client;
    closeClient = () => t.connection.close();
  });
  afterAll(async () => {
    await ctl?.stop();
    await closeClient?.();
    await kube?.cleanup();
  });

  /** No pod, Service or ConfigMap of this cluster in the namespace. */
  const noChildren = async (name: string) => {
    for (const plural of ['pods', 'services', 'configmaps'] as const) {
      if ((await childrenOf(kube.namespace, name, plural)).length > 0) return false;
    }
    return true;
  };

  it('UC1: one apply creates the ConfigMap, both Services and the pods, and reaches Running', async () => {
    const name = 'uc1';
    const created = await createFlameCluster(flameExample(kube.namespace, name, 3));
    const running = await waitForFlameCluster(kube.namespace, name, 'Running', (fc) => fc.status?.state === 'Running' && fc.status.executorManager?.ready === 3);
    expect(running.status).toEqual({
      sessionManager: { ready: 1, endpoint: `http://${name}-session-manager:8080` },
      executorManager: { replicas: 3, ready: 3 },
      state: 'Running',
      message: 'All components healthy',
      configGeneration: 1,
      observedGeneration: running.metadata.generation,
    });

    // Research 3d item 1: the ConfigMap, its YAML exactly, with the endpoints derived from the name.
    const configMaps = await childrenOf(kube.namespace, name, 'configmaps');
    expect(namesOf(configMaps)).toEqual([`${name}-config`]);
    const config = configMaps[0]!;
    const yaml = (config.data as Record<string, string>)[CONFIG_FILE_KEY]!;
    expect(Object.keys(config.data as object)).toEqual([CONFIG_FILE_KEY]);
    expect(parse(yaml)).toEqual({
      cluster: { name, endpoint: `http://${name}-session-manager:8080`, slot: 'cpu=1,mem=1g', policy: 'priority', storage: 'sqlite://flame.db' },
      executors: { shim: 'host', limits: { max_executors: 10 } },
      cache: { endpoint: `grpc://${name}-object-cache:9090`, network_interface: 'eth0', storage: '/var/lib/flame/cache' },
    });
    expect(yaml).toBe(
      [
        'cluster:',
        `  name: "${name}"`,
        `  endpoint: "http://${name}-session-manager:8080"`,
        '  slot: "cpu=1,mem=1g"',
        '  policy: "priority"',
        '  storage: "sqlite://flame.db"',
        'executors:',
        '  shim: "host"',
        '  limits:',
        '    max_executors: 10',
        'cache:',
        `  endpoint: "grpc://${name}-object-cache:9090"`,
        '  network_interface: "eth0"',
        '  storage: "/var/lib/flame/cache"',
        '',
      ].join('\n'),
    );
    const hash = configHashOf(config);

    // Item 2: both Services, exact names, ports, port names and selectors; the object cache selects the executors.
    const services = await childrenOf(kube.namespace, name, 'services');
    expect(namesOf(services)).toEqual([`${name}-object-cache`, `${name}-session-manager`]);
    const [objectCache, sessionManagerService] = services;
    expect(sessionManagerService!.spec).toMatchObject({
      type: 'ClusterIP',
      selector: { app: 'flame-session-manager', [FLAME_CLUSTER_LABEL]: name },
      ports: [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }],
    });
    expect((sessionManagerService!.spec as { selector: object }).selector).toEqual({ app: 'flame-session-manager', [FLAME_CLUSTER_LABEL]: name });
    expect((sessionManagerService!.spec as { ports: unknown[] }).ports).toHaveLength(1);
    expect(objectCache!.spec).toMatchObject({
      type: 'ClusterIP',
      ports: [{ name: 'grpc', port: 9090, targetPort: 9090, protocol: 'TCP' }],
    });
    expect((objectCache!.spec as { selector: object }).selector).toEqual({ app: 'flame-executor-manager', [FLAME_CLUSTER_LABEL]: name });
    expect((objectCache!.spec as { ports: unknown[] }).ports).toHaveLength(1);

    // Item 3: the session manager pod.
    const pods = await childrenOf(kube.namespace, name, 'pods');
    expect(namesOf(pods)).toEqual(podNames(name, 3));
    const sessionManager = pods.find((p) => p.metadata?.name === `${name}-session-manager`)!;
    expect(sessionManager.metadata?.labels).toEqual({ app: 'flame-session-manager', [FLAME_CLUSTER_LABEL]: name });
    expect(sessionManager.metadata?.annotations?.['flame.xflops.io/config-hash']).toBe(hash);
    const smSpec = sessionManager.spec as PodSpec;
    expect(smSpec.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
    expect(smSpec.volumes).toEqual([{ name: 'config', configMap: expect.objectContaining({ name: `${name}-config` }) }]);
    expect(smSpec.initContainers).toBeUndefined();
    expect(smSpec.containers).toHaveLength(1);
    const sm = smSpec.containers[0]!;
    expect(sm).toMatchObject({ name: 'session-manager', image: 'xflops/flame-session:v0.1.0', ports: [{ containerPort: 8080, protocol: 'TCP' }] });
    expect(sm.ports).toHaveLength(1);
    expect(sm.env).toEqual([
      { name: 'FLAME_CONFIG', value: '/etc/flame/flame-cluster.yaml' },
      { name: 'OBJECT_CACHE_ADDR', value: `${name}-object-cache:9090` },
    ]);
    expect(sm.volumeMounts).toEqual([{ name: 'config', mountPath: '/etc/flame', readOnly: true }]);
    expect(sm.readinessProbe).toEqual({ httpGet: expect.objectContaining({ path: '/healthz', port: 8080 }), initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 3 });
    expect(sm.livenessProbe).toEqual({ httpGet: expect.objectContaining({ path: '/healthz', port: 8080 }), initialDelaySeconds: 15, periodSeconds: 20, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 3 });

    // Item 4: executor pods -0..-2, their index label, the three env vars, and the init container that waits for the session manager.
    for (let i = 0; i < 3; i++) {
      const pod = pods.find((p) => p.metadata?.name === `${name}-executor-manager-${i}`)!;
      expect(pod.metadata?.labels).toEqual({ app: 'flame-executor-manager', [FLAME_CLUSTER_LABEL]: name, [POD_INDEX_LABEL]: String(i) });
      expect(pod.metadata?.annotations?.['flame.xflops.io/config-hash']).toBe(hash);
      const spec = pod.spec as PodSpec;
      expect(spec.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
      expect(spec.volumes).toEqual([{ name: 'config', configMap: expect.objectContaining({ name: `${name}-config` }) }]);
      expect(spec.containers).toHaveLength(1);
      const em = spec.containers[0]!;
      expect(em).toMatchObject({ name: 'executor-manager', image: 'xflops/flame-executor:v0.1.0', ports: [{ containerPort: 9090, protocol: 'TCP' }] });
      expect(em.env).toEqual([
        { name: 'FLAME_CONFIG', value: '/etc/flame/flame-cluster.yaml' },
        { name: 'SESSION_MANAGER_ADDR', value: `${name}-session-manager:8080` },
        { name: 'OBJECT_CACHE_ADDR', value: `${name}-object-cache:9090` },
      ]);
      expect(em.volumeMounts).toEqual([{ name: 'config', mountPath: '/etc/flame', readOnly: true }]);
      expect(em.readinessProbe).toMatchObject({ tcpSocket: { port: 9090 } });
      expect(em.livenessProbe).toMatchObject({ tcpSocket: { port: 9090 } });
      expect(spec.initContainers).toHaveLength(1);
      const wait = spec.initContainers![0]!;
      expect(wait.name).toBe('wait-for-session-manager');
      expect(wait.command?.join(' ')).toContain(`nc -w 2 ${name}-session-manager 8080 </dev/null`);
    }

    // Item 5: every child is controlled by this incarnation of the cluster.
    for (const child of [...pods, ...services, config]) {
      expect(child.metadata?.ownerReferences).toEqual([
        { apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', name, uid: created.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
  });

  it('writes max_executors 1 when the spec gives no maxExecutors, and leaves absent fields out', async () => {
    const name = 'defaults';
    const fc = flameExample(kube.namespace, name, 1);
    delete fc.spec.executorManager.maxExecutors;
    delete fc.spec.objectCache;
    delete fc.spec.sessionManager.slot;
    await runningFlameCluster(fc);
    const [config] = await childrenOf(kube.namespace, name, 'configmaps');
    expect(parse((config!.data as Record<string, string>)[CONFIG_FILE_KEY]!)).toEqual({
      cluster: { name, endpoint: `http://${name}-session-manager:8080`, policy: 'priority', storage: 'sqlite://flame.db' },
      executors: { shim: 'host', limits: { max_executors: 1 } },
      cache: { endpoint: `grpc://${name}-object-cache:9090` },
    });
  });

  it('reports Failed when the session manager pod fails, naming it', async () => {
    const name = 'sm-fails';
    await runningFlameCluster(flameExample(kube.namespace, name, 2));
    await simulatePod(kube.namespace, `${name}-session-manager`, 'fail: crashed');
    const failed = await waitForFlameCluster(kube.namespace, name, 'Failed', settled('Failed'));
    expect(failed.status?.message).toMatch(/session manager/i);
    expect(failed.status?.message).toContain('crashed');
    expect(failed.status).toMatchObject({ sessionManager: { ready: 0 }, executorManager: { replicas: 2, ready: 2 } });
  });

  it('reports Running while one executor is ready, and Failed when every executor has failed', async () => {
    const name = 'em-fail';
    await runningFlameCluster(flameExample(kube.namespace, name, 3));
    await simulatePod(kube.namespace, `${name}-executor-manager-0`, 'fail: out of memory');
    await simulatePod(kube.namespace, `${name}-executor-manager-2`, 'fail: out of memory');
    const degraded = await waitForFlameCluster(kube.namespace, name, '1 executor ready', settled('Running', { sessionManager: 1, executors: 1 }));
    expect(degraded.status?.message).toBe('1/3 executors ready');

    await simulatePod(kube.namespace, `${name}-executor-manager-1`, 'fail: out of memory');
    const failed = await waitForFlameCluster(kube.namespace, name, 'Failed', settled('Failed', { sessionManager: 1, executors: 0 }));
    expect(failed.status?.message).toContain('All 3 executor pods failed');
    expect(failed.status?.message).toContain('out of memory');
  });

  it('refuses at admission a negative replica count and a missing image, naming the field; nothing is created', async () => {
    const negative = flameExample(kube.namespace, 'negative', 3);
    negative.spec.executorManager.replicas = -1;
    expect(await admissionError(negative)).toMatch(/spec\.executorManager\.replicas: Invalid value: -1: .*greater than or equal to 0/);

    const noImage = flameExample(kube.namespace, 'no-image', 3);
    delete (noImage.spec.sessionManager as { image?: string }).image;
    expect(await admissionError(noImage)).toMatch(/spec\.sessionManager\.image: Required value/);

    expect(await getFlameCluster(kube.namespace, 'negative')).toBeUndefined();
    expect(await getFlameCluster(kube.namespace, 'no-image')).toBeUndefined();
    expect(await noChildren('negative')).toBe(true);
    expect(await noChildren('no-image')).toBe(true);
  });

  it('refuses an integer past 2^53 at admission, as validation would; nothing is created', async () => {
    // The CRD's integers are int64; past 2^53 a JavaScript number is no longer exact. The CRD bounds them
    // where validation does, so such a spec never reaches the workflow (its Failed path for an invalid
    // spec is covered with stub activities in test/workflows/flame-cluster-workflow.test.ts).
    const name = 'too-big';
    const fc = flameExample(kube.namespace, name, 2);
    fc.spec.executorManager.maxExecutors = 1e16;
    await expect(createFlameCluster(fc)).rejects.toThrow(/maxExecutors.*less than or equal to 9007199254740991/);
    expect(await getFlameCluster(kube.namespace, name)).toBeUndefined();
    expect(await noChildren(name)).toBe(true);
  });

  it('UC3: deleting the cluster lets the garbage collector remove every child, and ends its workflow', async () => {
    const name = 'uc3';
    const running = await runningFlameCluster(flameExample(kube.namespace, name, 3));
    expect(namesOf(await childrenOf(kube.namespace, name, 'pods'))).toEqual(podNames(name, 3));
    await deleteFlameCluster(kube.namespace, name);
    await eventually('the cluster to be gone', async () => (await getFlameCluster(kube.namespace, name)) === undefined);
    await eventually('the garbage collector to remove every child', () => noChildren(name), 90_000);
    await eventually('the workflow to end', async () => (await client.workflow.getHandle(flameWorkflowId(running)).describe()).status.name === 'COMPLETED');
  });
});

interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { containerPort: number; protocol?: string; name?: string }[];
  env?: { name: string; value: string }[];
  volumeMounts?: unknown[];
  readinessProbe?: unknown;
  livenessProbe?: unknown;
}

interface PodSpec {
  securityContext?: unknown;
  volumes?: unknown[];
  initContainers?: Container[];
  containers: Container[];
}
