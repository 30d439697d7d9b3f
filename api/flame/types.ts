// The FlameCluster resource (seed 004 §5.4): one Flame session manager, N executor managers and the
// object cache Service, configured from the spec. Types only: the spec's derive from its schema; api/flame/validate.ts turns
// an unknown object into one of these.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';
import type { flameClusterSpecSchema } from '../crd/flame-cluster-schema.ts';
import type { Static } from '../schema/typed.ts';

/** A Kubernetes quantity ("500m", "1Gi", or a plain number) and a container's requests/limits, passed to the pod as given. */
export type { Quantity, ResourceRequirements };

/** The spec, as declared once in its schema (api/crd/flame-cluster-schema.ts). */
export type FlameClusterSpec = Static<typeof flameClusterSpecSchema>;
export type SessionManagerSpec = FlameClusterSpec['sessionManager'];
export type ExecutorManagerSpec = FlameClusterSpec['executorManager'];
export type ObjectCacheSpec = NonNullable<FlameClusterSpec['objectCache']>;

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
