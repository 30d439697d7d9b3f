// Fixtures for FlameCluster tests: the seed's example (seed 004 §5.4) and variations of it.

import { FLAME_API_VERSION, FLAME_CLUSTER_KIND } from './constants.ts';
import type { FlameCluster, FlameClusterSpec } from './types.ts';

/** The seed's spec: 3 executors, every optional field set. */
export function seedSpec(): FlameClusterSpec {
  return {
    sessionManager: {
      image: 'xflops/flame-session:v0.1.0',
      resources: {},
      slot: 'cpu=1,mem=1g',
      policy: 'priority',
      storage: 'sqlite://flame.db',
    },
    executorManager: {
      image: 'xflops/flame-executor:v0.1.0',
      replicas: 3,
      resources: {},
      shim: 'host',
      maxExecutors: 10,
    },
    objectCache: {
      networkInterface: 'eth0',
      storage: '/var/lib/flame/cache',
    },
  };
}

/** The seed's `my-flame` as the API server would hand it out (namespace, uid, generation set). */
export function seedCluster(overrides: { name?: string; spec?: FlameClusterSpec; uid?: string | null; generation?: number } = {}): FlameCluster {
  const uid = overrides.uid === undefined ? '6f0d5f7e-1c2b-4a3d-9e8f-0123456789ab' : overrides.uid;
  return {
    apiVersion: FLAME_API_VERSION,
    kind: FLAME_CLUSTER_KIND,
    metadata: {
      name: overrides.name ?? 'my-flame',
      namespace: 'flame',
      ...(uid !== null ? { uid } : {}),
      generation: overrides.generation ?? 1,
    },
    spec: overrides.spec ?? seedSpec(),
  };
}

/** A cluster whose executor manager differs from the seed's. */
export function withExecutors(cluster: FlameCluster, change: Partial<FlameClusterSpec['executorManager']>): FlameCluster {
  return { ...cluster, spec: { ...cluster.spec, executorManager: { ...cluster.spec.executorManager, ...change } } };
}
