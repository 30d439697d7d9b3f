// Names, ports and patterns of a FlameCluster's children, as plain functions of the cluster's name.
// Pure (no imports), so validation in workflow code, the CRD schema and the activities that render and
// read the children all agree on them.

/** Pod names become the pods' hostnames, which must be DNS labels: at most 63 characters. */
export const MAX_CHILD_NAME_LENGTH = 63;

/**
 * A FlameCluster name must be a DNS-1035 label (lower-case letters, digits and '-', starting with a
 * letter): it prefixes the two Service names, and Service names are DNS-1035 labels.
 */
export const CLUSTER_NAME_PATTERN = '^[a-z]([-a-z0-9]*[a-z0-9])?$';


export const SESSION_MANAGER_PORT = 8080;
export const OBJECT_CACHE_PORT = 9090;

/** Child names of the FlameCluster named `cluster`. */
export const flameNames = {
  config: (cluster: string): string => `${cluster}-config`,
  /** The session manager's Pod and its Service share this name. */
  sessionManager: (cluster: string): string => `${cluster}-session-manager`,
  objectCache: (cluster: string): string => `${cluster}-object-cache`,
  executor: (cluster: string, index: number): string => `${cluster}-executor-manager-${index}`,
};

/** The session manager's address inside the namespace, as executors reach it (SESSION_MANAGER_ADDR). */
export function sessionManagerAddress(cluster: string): string {
  return `${flameNames.sessionManager(cluster)}:${SESSION_MANAGER_PORT}`;
}

/** The object cache's address inside the namespace (OBJECT_CACHE_ADDR). */
export function objectCacheAddress(cluster: string): string {
  return `${flameNames.objectCache(cluster)}:${OBJECT_CACHE_PORT}`;
}

/** `cluster.endpoint` of flame-cluster.yaml and `status.sessionManager.endpoint`. */
export function sessionManagerEndpoint(cluster: string): string {
  return `http://${sessionManagerAddress(cluster)}`;
}

/** `cache.endpoint` of flame-cluster.yaml. */
export function objectCacheEndpoint(cluster: string): string {
  return `grpc://${objectCacheAddress(cluster)}`;
}

/**
 * The longest name among the children of a cluster with `replicas` executors: the last executor pod,
 * or the session manager's Pod and Service when there are no executors.
 */
export function longestChildName(cluster: string, replicas: number): string {
  const sessionManager = flameNames.sessionManager(cluster);
  if (replicas <= 0) return sessionManager;
  const lastExecutor = flameNames.executor(cluster, replicas - 1);
  return lastExecutor.length > sessionManager.length ? lastExecutor : sessionManager;
}
