// The FlameCluster resource (seed 004 §5.4): one Flame session manager, N executor managers and the
// object cache Service, configured from the spec. Types only; api/flame/validate.ts turns an unknown
// object into one of these.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';

/** A Kubernetes quantity ("500m", "1Gi", or a plain number) and a container's requests/limits, passed to the pod as given. */
export type { Quantity, ResourceRequirements };

export interface SessionManagerSpec {
  image: string;
  resources?: ResourceRequirements;
  /** Resource slot definition, e.g. "cpu=1,mem=1g" (flame-cluster.yaml `cluster.slot`). */
  slot?: string;
  /** Scheduling policy, e.g. "priority" (`cluster.policy`). */
  policy?: string;
  /** Storage backend URI, e.g. "sqlite://flame.db" (`cluster.storage`). */
  storage?: string;
}

export interface ExecutorManagerSpec {
  image: string;
  /** Number of executor manager pods; 0 keeps only the session manager. */
  replicas: number;
  resources?: ResourceRequirements;
  /** Executor shim type, e.g. "host" (`executors.shim`). */
  shim?: string;
  /** `executors.limits.max_executors`; 1 when omitted. */
  maxExecutors?: number;
}

export interface ObjectCacheSpec {
  /** `cache.network_interface`, e.g. "eth0". */
  networkInterface?: string;
  /** `cache.storage`, e.g. "/var/lib/flame/cache". */
  storage?: string;
}

export interface FlameClusterSpec {
  sessionManager: SessionManagerSpec;
  executorManager: ExecutorManagerSpec;
  objectCache?: ObjectCacheSpec;
}

export type FlameClusterState = 'Pending' | 'Running' | 'Failed';

export interface FlameClusterStatus {
  /** `ready` is a count (0 or 1 today) so that an HA session manager fits later. */
  sessionManager: { ready: number; endpoint: string };
  executorManager: { replicas: number; ready: number };
  state: FlameClusterState;
  /** Bumped by the controller whenever the rendered flame-cluster.yaml changes. */
  configGeneration: number;
  observedGeneration: number;
  message: string;
}

/** FlameCluster's controller adds no finalizer, so its metadata keeps none. */
export type FlameClusterMetadata = Omit<ObjectMetadata, 'finalizers'>;

export interface FlameCluster {
  apiVersion: string;
  kind: string;
  metadata: FlameClusterMetadata;
  spec: FlameClusterSpec;
  status?: FlameClusterStatus;
}
