import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { seedCluster, seedSpec, withExecutors } from '../../api/flame/testing.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { configHashOf, configMapName, executorPodName, podIndex, renderFlameCluster, sessionManagerName } from './render.ts';

type Json = Record<string, unknown>;
const UID = '6f0d5f7e-1c2b-4a3d-9e8f-0123456789ab';
const OWNER = { apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', name: 'my-flame', uid: UID, controller: true, blockOwnerDeletion: true };

const children = renderFlameCluster(seedCluster());
const all = (c = children): AnyObject[] => [c.configMap, ...c.services, c.sessionManagerPod, ...c.executorPods];
const podSpec = (pod: AnyObject) => pod.spec as { securityContext: Json; initContainers?: Json[]; containers: Json[]; volumes: Json[] };
const container = (pod: AnyObject) => podSpec(pod).containers[0]!;

describe('golden render of the seed example (3 executors, with uid)', () => {
  // Update after a deliberate change: npx vitest run activities/flame -u
  it('every child, exactly', async () => {
    await expect(`${JSON.stringify(children, null, 2)}\n`).toMatchFileSnapshot('testdata/my-flame.children.json');
  });

  it('flame-cluster.yaml, exactly', async () => {
    await expect(children.config).toMatchFileSnapshot('testdata/my-flame.flame-cluster.yaml');
  });

  it('the golden config hash is `sha256sum testdata/my-flame.flame-cluster.yaml | cut -c1-16`', () => {
    expect(children.configHash).toBe('a353d5981c76d37b');
  });

  it('is deterministic, key order included', () => {
    expect(JSON.stringify(renderFlameCluster(seedCluster()))).toBe(JSON.stringify(children));
  });
});

describe('checklist 1: the ConfigMap', () => {
  it('is <name>-config with flame-cluster.yaml: auto endpoints and the spec values', () => {
    expect(children.configMap.metadata?.name).toBe('my-flame-config');
    expect(children.configMap.data).toEqual({ 'flame-cluster.yaml': children.config });
    expect(parse(children.config)).toEqual({
      cluster: { name: 'my-flame', endpoint: 'http://my-flame-session-manager:8080', slot: 'cpu=1,mem=1g', policy: 'priority', storage: 'sqlite://flame.db' },
      executors: { shim: 'host', limits: { max_executors: 10 } },
      cache: { endpoint: 'grpc://my-flame-object-cache:9090', network_interface: 'eth0', storage: '/var/lib/flame/cache' },
    });
  });

  it('max_executors defaults to 1; absent optional fields are left out', () => {
    const minimal = seedCluster({ spec: { sessionManager: { image: 's:1' }, executorManager: { image: 'e:1', replicas: 1 } } });
    expect(parse(renderFlameCluster(minimal).config)).toEqual({
      cluster: { name: 'my-flame', endpoint: 'http://my-flame-session-manager:8080' },
      executors: { limits: { max_executors: 1 } },
      cache: { endpoint: 'grpc://my-flame-object-cache:9090' },
    });
  });

  it('strings that YAML would misread stay strings', () => {
    const spec = seedSpec();
    spec.sessionManager.slot = 'yes';
    spec.sessionManager.policy = '0x10';
    spec.objectCache = { storage: 'a: b # c\n"d"' };
    expect(parse(renderFlameCluster(seedCluster({ spec })).config)).toMatchObject({ cluster: { slot: 'yes', policy: '0x10' }, cache: { storage: 'a: b # c\n"d"' } });
  });

  it('the config hash is the first 8 bytes of SHA-256 of the text, in hex, on the ConfigMap and every pod', () => {
    expect(children.configHash).toBe(configHashOf(children.config));
    expect(children.configHash).toMatch(/^[0-9a-f]{16}$/);
    for (const object of [children.configMap, children.sessionManagerPod, ...children.executorPods]) {
      expect(object.metadata?.annotations?.['flame.xflops.io/config-hash'], object.metadata?.name).toBe(children.configHash);
    }
  });
});

describe('checklist 2: the Services', () => {
  it('<name>-session-manager: ClusterIP, port 8080 named http, selecting the session manager', () => {
    expect(children.services[0]).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'my-flame-session-manager', namespace: 'flame', labels: { app: 'flame-session-manager', 'flame.xflops.io/cluster': 'my-flame' }, ownerReferences: [OWNER] },
      spec: {
        type: 'ClusterIP',
        selector: { app: 'flame-session-manager', 'flame.xflops.io/cluster': 'my-flame' },
        ports: [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }],
      },
    });
  });

  it('<name>-object-cache: port 9090 named grpc, selecting the executor pods', () => {
    expect(children.services[1]).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'my-flame-object-cache', namespace: 'flame', labels: { app: 'flame-object-cache', 'flame.xflops.io/cluster': 'my-flame' }, ownerReferences: [OWNER] },
      spec: {
        type: 'ClusterIP',
        selector: { app: 'flame-executor-manager', 'flame.xflops.io/cluster': 'my-flame' },
        ports: [{ name: 'grpc', port: 9090, targetPort: 9090, protocol: 'TCP' }],
      },
    });
    for (const pod of children.executorPods) expect(pod.metadata?.labels).toMatchObject((children.services[1]!.spec as { selector: Json }).selector);
    expect(children.sessionManagerPod.metadata?.labels).toMatchObject((children.services[0]!.spec as { selector: Json }).selector);
  });
});

describe('checklist 3: the session manager Pod', () => {
  const pod = children.sessionManagerPod;

  it('image, port, env, read-only /etc/flame mount, probes', () => {
    expect(pod.metadata?.name).toBe('my-flame-session-manager');
    expect(pod.metadata?.labels).toEqual({ app: 'flame-session-manager', 'flame.xflops.io/cluster': 'my-flame' });
    expect(container(pod)).toEqual({
      name: 'session-manager',
      image: 'xflops/flame-session:v0.1.0',
      ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
      env: [
        { name: 'FLAME_CONFIG', value: '/etc/flame/flame-cluster.yaml' },
        { name: 'OBJECT_CACHE_ADDR', value: 'my-flame-object-cache:9090' },
      ],
      resources: {},
      volumeMounts: [{ name: 'config', mountPath: '/etc/flame', readOnly: true }],
      readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 3 },
      livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 15, periodSeconds: 20, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 3 },
    });
    expect(podSpec(pod).volumes).toEqual([{ name: 'config', configMap: { name: 'my-flame-config' } }]);
    expect(podSpec(pod).initContainers).toBeUndefined();
  });

  it('non-root security context', () => {
    expect(podSpec(pod).securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
  });

  it('config-hash annotation, and a spec hash', () => {
    expect(pod.metadata?.annotations).toEqual({ 'flame.xflops.io/config-hash': children.configHash, 'flame.xflops.io/spec-hash': expect.stringMatching(/^[0-9a-f]{16}$/) });
  });
});

describe('checklist 4: the executor Pods', () => {
  it('-0..-N-1 with the pod-index label', () => {
    expect(children.executorPods.map((p) => p.metadata?.name)).toEqual(['my-flame-executor-manager-0', 'my-flame-executor-manager-1', 'my-flame-executor-manager-2']);
    children.executorPods.forEach((pod, i) => {
      expect(pod.metadata?.labels).toEqual({ app: 'flame-executor-manager', 'flame.xflops.io/cluster': 'my-flame', 'flame.xflops.io/pod-index': String(i) });
      expect(podIndex(pod)).toBe(i);
    });
  });

  it('the three env vars, port 9090, TCP probes, the config mount', () => {
    for (const pod of children.executorPods) {
      expect(container(pod)).toEqual({
        name: 'executor-manager',
        image: 'xflops/flame-executor:v0.1.0',
        ports: [{ name: 'grpc', containerPort: 9090, protocol: 'TCP' }],
        env: [
          { name: 'FLAME_CONFIG', value: '/etc/flame/flame-cluster.yaml' },
          { name: 'SESSION_MANAGER_ADDR', value: 'my-flame-session-manager:8080' },
          { name: 'OBJECT_CACHE_ADDR', value: 'my-flame-object-cache:9090' },
        ],
        resources: {},
        volumeMounts: [{ name: 'config', mountPath: '/etc/flame', readOnly: true }],
        readinessProbe: { tcpSocket: { port: 9090 }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 3 },
        livenessProbe: { tcpSocket: { port: 9090 }, initialDelaySeconds: 15, periodSeconds: 20, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 3 },
      });
      expect(podSpec(pod).securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
      expect(podSpec(pod).volumes).toEqual([{ name: 'config', configMap: { name: 'my-flame-config' } }]);
    }
  });

  it('wait for the session manager Service in an init container', () => {
    expect(podSpec(children.executorPods[0]!).initContainers).toEqual([
      {
        name: 'wait-for-session-manager',
        image: 'busybox:1.36',
        command: ['sh', '-c', 'until nc -w 2 my-flame-session-manager 8080 </dev/null; do echo "waiting for my-flame-session-manager:8080"; sleep 1; done'],
      },
    ]);
  });

  it('replicas 0 renders no executor pods, but the session manager and both Services', () => {
    const zero = renderFlameCluster(withExecutors(seedCluster(), { replicas: 0 }));
    expect(zero.executorPods).toEqual([]);
    expect(zero.services).toHaveLength(2);
    expect(zero.sessionManagerPod.metadata?.name).toBe('my-flame-session-manager');
  });
});

describe('every child', () => {
  it('carries the cluster label and a controller ownerReference with the uid', () => {
    expect(all()).toHaveLength(1 + 2 + 1 + 3);
    for (const object of all()) {
      expect(object.metadata?.labels?.['flame.xflops.io/cluster'], object.metadata?.name).toBe('my-flame');
      expect(object.metadata?.ownerReferences, object.metadata?.name).toEqual([OWNER]);
      expect(object.metadata?.namespace).toBe('flame');
    }
  });

  it('offline (no uid, no namespace): the ownerReference leaves the uid out, metadata the namespace', () => {
    const offline: FlameCluster = { ...seedCluster({ uid: null }), metadata: { name: 'my-flame' } };
    for (const object of all(renderFlameCluster(offline))) {
      const { uid: _uid, ...withoutUid } = OWNER;
      expect(object.metadata?.ownerReferences).toEqual([withoutUid]);
      expect(object.metadata).not.toHaveProperty('namespace');
    }
  });

  it('resources pass through to the containers unchanged', () => {
    const spec = seedSpec();
    spec.sessionManager.resources = { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '2Gi' } };
    spec.executorManager.resources = { limits: { cpu: 4, 'nvidia.com/gpu': 1 } };
    const rendered = renderFlameCluster(seedCluster({ spec }));
    expect(container(rendered.sessionManagerPod).resources).toEqual(spec.sessionManager.resources);
    expect(container(rendered.executorPods[2]!).resources).toEqual(spec.executorManager.resources);
    delete spec.executorManager.resources;
    expect(container(renderFlameCluster(seedCluster({ spec })).executorPods[0]!)).not.toHaveProperty('resources');
  });
});

describe('what changes a pod', () => {
  const hashes = (c: FlameCluster) => {
    const r = renderFlameCluster(c);
    return [r.sessionManagerPod, ...r.executorPods].map((p) => [p.metadata?.annotations?.['flame.xflops.io/config-hash'], p.metadata?.annotations?.['flame.xflops.io/spec-hash']]);
  };
  const before = hashes(seedCluster());

  it('a configuration change gives every pod a new config hash', () => {
    const after = hashes(withExecutors(seedCluster(), { maxExecutors: 11 }));
    after.forEach(([config], i) => expect(config).not.toBe(before[i]![0]));
  });

  it('an image change changes no config hash (the image itself marks the pod stale)', () => {
    const spec = seedSpec();
    spec.sessionManager.image = 'xflops/flame-session:v0.2.0';
    const after = hashes(seedCluster({ spec }));
    after.forEach(([config], i) => expect(config).toBe(before[i]![0]));
  });

  it('a resources change alters only the spec hash of the pods it concerns', () => {
    const after = hashes(withExecutors(seedCluster(), { resources: { limits: { cpu: '2' } } }));
    expect(after[0]).toEqual(before[0]);
    after.slice(1).forEach(([config, spec], i) => {
      expect(config).toBe(before[i + 1]![0]);
      expect(spec).not.toBe(before[i + 1]![1]);
    });
  });

  it('scaling changes no existing pod', () => {
    const five = hashes(withExecutors(seedCluster(), { replicas: 5 }));
    expect(five.slice(0, 4)).toEqual(before);
  });
});

describe('name helpers', () => {
  it('follow the seed', () => {
    const c = seedCluster();
    expect([configMapName(c), sessionManagerName(c), executorPodName(c, 7)]).toEqual(['my-flame-config', 'my-flame-session-manager', 'my-flame-executor-manager-7']);
  });

  it('podIndex reads only a plain non-negative index', () => {
    const pod = (value?: string): AnyObject => ({ metadata: { labels: value === undefined ? {} : { 'flame.xflops.io/pod-index': value } } });
    expect([pod('0'), pod('12'), pod(), pod('-1'), pod('01'), pod('1.5'), pod('x'), pod('')].map(podIndex)).toEqual([0, 12, undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(podIndex({})).toBeUndefined();
  });
});
