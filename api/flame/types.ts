// The FlameCluster resource (seed 004 §5.4): one Flame session manager, N executor managers and the
// object cache Service, configured from the spec. Types only: spec's and status's derive from their schemas; api/flame/validate.ts turns
// an unknown object into one of these.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';
import type { flameClusterSpecSchema, flameClusterStatusSchema } from '../crd/flame-cluster-schema.ts';
import type { Complete, Static } from '../schema/typed.ts';

/** A Kubernetes quantity ("500m", "1Gi", or a plain number) and a container's requests/limits, passed to the pod as given. */
export type { Quantity, ResourceRequirements };

/** The spec, as declared once in its schema (api/crd/flame-cluster-schema.ts). */
export type FlameClusterSpec = Static<typeof flameClusterSpecSchema>;
export type SessionManagerSpec = FlameClusterSpec['sessionManager'];
export type ExecutorManagerSpec = FlameClusterSpec['executorManager'];
export type ObjectCacheSpec = NonNullable<FlameClusterSpec['objectCache']>;

/** The status as stored, declared once in its schema (api/crd/flame-cluster-schema.ts): any field may be missing (none before the first write). */
export type StoredFlameClusterStatus = Static<typeof flameClusterStatusSchema>;
/**
 * The status the controller writes, every field of it. `sessionManager.ready` is a count (0 or 1 today)
 * so that an HA session manager fits later; `configGeneration` is bumped whenever the rendered
 * flame-cluster.yaml changes.
 */
export type FlameClusterStatus = Complete<StoredFlameClusterStatus>;
export type FlameClusterState = FlameClusterStatus['state'];

/** FlameCluster's controller adds no finalizer, so its metadata keeps none. */
export type FlameClusterMetadata = Omit<ObjectMetadata, 'finalizers'>;

export interface FlameCluster {
  apiVersion: string;
  kind: string;
  metadata: FlameClusterMetadata;
  spec: FlameClusterSpec;
  status?: StoredFlameClusterStatus;
}
