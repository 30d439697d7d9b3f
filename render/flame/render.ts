// Every child of a FlameCluster, as the objects to apply (seed 004 §5, research "Flame Operator" 3a):
// the ConfigMap holding flame-cluster.yaml, the session manager's and the object cache's Services, the
// session manager Pod and one Pod per executor manager. A pure function of the cluster: the same cluster
// gives byte-identical objects (fixed key order), so a pass that finds nothing to change writes nothing.
//
// Where the seed leaves a choice, the choice made here:
// - OBJECT_CACHE_ADDR goes to every Flame pod (the HLD), not only to executors (upstream).
// - Executor pods wait for the session manager in an init container (the HLD's risk table).
// - Pods carry, besides the config hash, a hash of their own spec: pod specs are immutable, so a change
//   of resources (which flame-cluster.yaml does not hold) also needs the pod recreated.

import { createHash } from 'node:crypto';
import {
  CONFIG_FILE_KEY,
  CONFIG_HASH_ANNOTATION,
  FLAME_API_VERSION,
  FLAME_CLUSTER_KIND,
  FLAME_CLUSTER_LABEL,
  POD_INDEX_LABEL,
  SPEC_HASH_ANNOTATION,
} from '../../api/flame/constants.ts';
import {
  flameNames,
  OBJECT_CACHE_PORT,
  objectCacheAddress,
  objectCacheEndpoint,
  SESSION_MANAGER_PORT,
  sessionManagerAddress,
  sessionManagerEndpoint,
} from '../../api/flame/names.ts';
import type { FlameCluster, ResourceRequirements } from '../../api/flame/types.ts';
import { sortKeysDeep } from '../../api/crd/serialize.ts';
import type { AnyObject, ObjectMetadata } from '../../kube/custom-objects.ts';

export interface FlameChildren {
  configMap: AnyObject;
  /** The session manager's Service, then the object cache's. */
  services: AnyObject[];
  sessionManagerPod: AnyObject;
  /** Executor manager pods, index 0..replicas-1. */
  executorPods: AnyObject[];
  /** The flame-cluster.yaml text held by the ConfigMap. */
  config: string;
  /** First 8 bytes of the SHA-256 of `config`, in hex: the pods' config-hash annotation. */
  configHash: string;
}

/** `app` label values: the session manager Service selects the first, the object cache Service the second. */
export const SESSION_MANAGER_APP = 'flame-session-manager';
export const EXECUTOR_MANAGER_APP = 'flame-executor-manager';
const CONFIG_APP = 'flame-config';
const OBJECT_CACHE_APP = 'flame-object-cache';

export const CONFIG_MOUNT_PATH = '/etc/flame';
export const FLAME_CONFIG_PATH = `${CONFIG_MOUNT_PATH}/${CONFIG_FILE_KEY}`;

/**
 * The init container of executor pods. `nc -w 2 <host> <port> </dev/null` only opens a TCP connection and
 * closes it (its input is empty): to the session manager's ClusterIP Service that succeeds once the
 * Service has a ready endpoint, i.e. once the session manager's readiness probe passes (with no endpoint
 * the connection is refused). Not `nc -z`: busybox builds without NC_110_COMPAT (Debian's, for one) have
 * no `-z` and print their usage instead, so the wait would never end (seen on the cluster mode's node).
 * A small, pinned, multi-arch image; the loop prints why the pod is still initialising.
 */
export const WAIT_IMAGE = 'busybox:1.36';
export const WAIT_CONTAINER = 'wait-for-session-manager';

/** flame-cluster.yaml's `executors.limits.max_executors` when the spec gives none. */
export const DEFAULT_MAX_EXECUTORS = 1;

/** The UID the Flame images run as; also the group that owns the mounted configuration. */
const FLAME_UID = 1000;

export function configMapName(cluster: FlameCluster): string {
  return flameNames.config(cluster.metadata.name);
}

/** Name of the session manager's Pod and of its Service. */
export function sessionManagerName(cluster: FlameCluster): string {
  return flameNames.sessionManager(cluster.metadata.name);
}

export function objectCacheName(cluster: FlameCluster): string {
  return flameNames.objectCache(cluster.metadata.name);
}

export function executorPodName(cluster: FlameCluster, index: number): string {
  return flameNames.executor(cluster.metadata.name, index);
}

/** The index label of an executor pod; undefined for the session manager or a label that is not a plain index. */
export function podIndex(pod: AnyObject): number | undefined {
  const value = pod.metadata?.labels?.[POD_INDEX_LABEL];
  return value !== undefined && /^(0|[1-9][0-9]{0,8})$/.test(value) ? Number(value) : undefined;
}

export function renderFlameCluster(cluster: FlameCluster): FlameChildren {
  const config = renderFlameConfig(cluster);
  const configHash = configHashOf(config);
  const replicas = Math.max(0, cluster.spec.executorManager.replicas);
  return {
    configMap: renderConfigMap(cluster, config, configHash),
    services: [renderSessionManagerService(cluster), renderObjectCacheService(cluster)],
    sessionManagerPod: renderSessionManagerPod(cluster, configHash),
    executorPods: Array.from({ length: replicas }, (_, index) => renderExecutorPod(cluster, index, configHash)),
    config,
    configHash,
  };
}

/**
 * flame-cluster.yaml (seed 004 §5.4): `cluster`, `executors` and `cache`, the endpoints derived from
 * the Service names, absent spec fields left out. Written by a tiny emitter rather than a YAML library:
 * its hash decides whether every pod is recreated, so the text must not change with a library upgrade.
 */
export function renderFlameConfig(cluster: FlameCluster): string {
  const { name } = cluster.metadata;
  const { sessionManager, executorManager, objectCache } = cluster.spec;
  return emitYaml([
    [
      'cluster',
      [
        ['name', name],
        ['endpoint', sessionManagerEndpoint(name)],
        ['slot', sessionManager.slot],
        ['policy', sessionManager.policy],
        ['storage', sessionManager.storage],
      ],
    ],
    [
      'executors',
      [
        ['shim', executorManager.shim],
        ['limits', [['max_executors', executorManager.maxExecutors ?? DEFAULT_MAX_EXECUTORS]]],
      ],
    ],
    [
      'cache',
      [
        ['endpoint', objectCacheEndpoint(name)],
        ['network_interface', objectCache?.networkInterface],
        ['storage', objectCache?.storage],
      ],
    ],
  ]);
}

type YamlValue = string | number | undefined | YamlMap;
type YamlMap = [key: string, value: YamlValue][];

/** Block-style YAML of nested maps; strings double-quoted (JSON strings are valid YAML), undefined entries skipped. */
function emitYaml(map: YamlMap, indent = ''): string {
  return map
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) =>
      Array.isArray(value) ? `${indent}${key}:\n${emitYaml(value, `${indent}  `)}` : `${indent}${key}: ${JSON.stringify(value)}\n`,
    )
    .join('');
}

export function configHashOf(config: string): string {
  return createHash('sha256').update(config).digest().subarray(0, 8).toString('hex');
}

/** The same hash over an object with its keys sorted, so that key order never counts as a change. */
function specHashOf(spec: unknown): string {
  return configHashOf(JSON.stringify(sortKeysDeep(spec)));
}

function renderConfigMap(cluster: FlameCluster, config: string, configHash: string): AnyObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: childMetadata(cluster, configMapName(cluster), { app: CONFIG_APP }, { [CONFIG_HASH_ANNOTATION]: configHash }),
    data: { [CONFIG_FILE_KEY]: config },
  };
}

function renderSessionManagerService(cluster: FlameCluster): AnyObject {
  return service(cluster, sessionManagerName(cluster), SESSION_MANAGER_APP, SESSION_MANAGER_APP, 'http', SESSION_MANAGER_PORT);
}

/** The object cache runs inside the executor managers: its Service selects the executor pods. */
function renderObjectCacheService(cluster: FlameCluster): AnyObject {
  return service(cluster, objectCacheName(cluster), OBJECT_CACHE_APP, EXECUTOR_MANAGER_APP, 'grpc', OBJECT_CACHE_PORT);
}

function service(cluster: FlameCluster, name: string, app: string, selectApp: string, portName: string, port: number): AnyObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMetadata(cluster, name, { app }),
    spec: {
      type: 'ClusterIP',
      selector: { app: selectApp, [FLAME_CLUSTER_LABEL]: cluster.metadata.name },
      ports: [{ name: portName, port, targetPort: port, protocol: 'TCP' }],
    },
  };
}

function renderSessionManagerPod(cluster: FlameCluster, configHash: string): AnyObject {
  const { sessionManager } = cluster.spec;
  const container = {
    name: 'session-manager',
    image: sessionManager.image,
    ports: [{ name: 'http', containerPort: SESSION_MANAGER_PORT, protocol: 'TCP' }],
    env: [
      { name: 'FLAME_CONFIG', value: FLAME_CONFIG_PATH },
      { name: 'OBJECT_CACHE_ADDR', value: objectCacheAddress(cluster.metadata.name) },
    ],
    ...resourcesOf(sessionManager.resources),
    volumeMounts: [configMount()],
    readinessProbe: probe({ httpGet: { path: '/healthz', port: SESSION_MANAGER_PORT } }, 5, 10),
    livenessProbe: probe({ httpGet: { path: '/healthz', port: SESSION_MANAGER_PORT } }, 15, 20),
  };
  return pod(cluster, sessionManagerName(cluster), { app: SESSION_MANAGER_APP }, configHash, { containers: [container] });
}

function renderExecutorPod(cluster: FlameCluster, index: number, configHash: string): AnyObject {
  const { executorManager } = cluster.spec;
  const name = cluster.metadata.name;
  const sessionManagerHost = flameNames.sessionManager(name);
  // The host is the cluster name plus a suffix, and validation allows only [a-z0-9-] in names: safe in a shell word.
  const wait = `until nc -w 2 ${sessionManagerHost} ${SESSION_MANAGER_PORT} </dev/null; do echo "waiting for ${sessionManagerHost}:${SESSION_MANAGER_PORT}"; sleep 1; done`;
  const container = {
    name: 'executor-manager',
    image: executorManager.image,
    ports: [{ name: 'grpc', containerPort: OBJECT_CACHE_PORT, protocol: 'TCP' }],
    env: [
      { name: 'FLAME_CONFIG', value: FLAME_CONFIG_PATH },
      { name: 'SESSION_MANAGER_ADDR', value: sessionManagerAddress(name) },
      { name: 'OBJECT_CACHE_ADDR', value: objectCacheAddress(name) },
    ],
    ...resourcesOf(executorManager.resources),
    volumeMounts: [configMount()],
    readinessProbe: probe({ tcpSocket: { port: OBJECT_CACHE_PORT } }, 5, 10),
    livenessProbe: probe({ tcpSocket: { port: OBJECT_CACHE_PORT } }, 15, 20),
  };
  return pod(cluster, executorPodName(cluster, index), { app: EXECUTOR_MANAGER_APP, [POD_INDEX_LABEL]: String(index) }, configHash, {
    initContainers: [{ name: WAIT_CONTAINER, image: WAIT_IMAGE, command: ['sh', '-c', wait] }],
    containers: [container],
  });
}

function pod(cluster: FlameCluster, name: string, labels: Record<string, string>, configHash: string, containers: Record<string, unknown>): AnyObject {
  const spec = {
    securityContext: { runAsNonRoot: true, runAsUser: FLAME_UID, fsGroup: FLAME_UID },
    ...containers,
    volumes: [{ name: 'config', configMap: { name: configMapName(cluster) } }],
  };
  const annotations = { [CONFIG_HASH_ANNOTATION]: configHash, [SPEC_HASH_ANNOTATION]: specHashOf(spec) };
  return { apiVersion: 'v1', kind: 'Pod', metadata: childMetadata(cluster, name, labels, annotations), spec };
}

function configMount(): Record<string, unknown> {
  return { name: 'config', mountPath: CONFIG_MOUNT_PATH, readOnly: true };
}

/** Thresholds and timeout as upstream sets them; the delays differ between readiness and liveness. */
function probe(handler: Record<string, unknown>, initialDelaySeconds: number, periodSeconds: number): Record<string, unknown> {
  return { ...handler, initialDelaySeconds, periodSeconds, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 3 };
}

/** The spec's requests and limits as given (an empty `resources: {}` too); nothing when the spec has none. */
function resourcesOf(resources: ResourceRequirements | undefined): { resources?: ResourceRequirements } {
  if (resources === undefined) return {};
  return {
    resources: {
      ...(resources.requests ? { requests: { ...resources.requests } } : {}),
      ...(resources.limits ? { limits: { ...resources.limits } } : {}),
    },
  };
}

/**
 * Name, namespace, labels (the `app` label first, then the cluster label, then any other), annotations
 * and the controller reference that lets Kubernetes' garbage collector remove the child with the
 * cluster. Without a uid (an offline render) the reference leaves it out rather than invent one.
 */
function childMetadata(cluster: FlameCluster, name: string, labels: Record<string, string>, annotations?: Record<string, string>): ObjectMetadata {
  const { app, ...rest } = labels;
  const { namespace, uid } = cluster.metadata;
  return {
    name,
    ...(namespace ? { namespace } : {}),
    labels: { ...(app !== undefined ? { app } : {}), [FLAME_CLUSTER_LABEL]: cluster.metadata.name, ...rest },
    ...(annotations ? { annotations } : {}),
    ownerReferences: [
      {
        apiVersion: FLAME_API_VERSION,
        kind: FLAME_CLUSTER_KIND,
        name: cluster.metadata.name,
        ...(uid ? { uid } : {}),
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
}
