import type { FlameClusterStatus } from '../../api/flame/types.ts';
import type { FlameActivities } from '../../contract/flame-activities.ts';
import { flameStatus } from '../../render/flame/status.ts';
import { applyFlameCluster } from './apply-flame-cluster.ts';
import { childrenOf, flameClients, PODS, type FlameActivityDeps, type FlameClients } from './flame-clients.ts';
import type { KindClientParts } from '../kind/kind-client.ts';

export type { FlameActivityDeps } from './flame-clients.ts';

/** The cluster's status from its pods; an invalid cluster's is Failed with zero counts and the endpoint it would have. */
export function reportFlameStatus(flame: FlameClients): FlameActivities['reportFlameStatus'] {
  return async function reportFlameStatus(ref, input) {
    const cluster = await flame.clusters.require(ref);
    const configGeneration = cluster.status?.configGeneration ?? 0;
    const status: FlameClusterStatus = input.invalid
      ? { ...flameStatus(cluster, [], configGeneration), state: 'Failed', message: input.invalid, observedGeneration: cluster.metadata.generation ?? 0 }
      : flameStatus(cluster, await childrenOf(flame, PODS, ref), input.configGeneration ?? configGeneration);
    // The workflow is the only writer of this status: unchanged (exactly) means nothing to write.
    await flame.clusters.applyStatus(ref, cluster, status, 'exact');
    return status;
  };
}

/** The FlameCluster's side effects, each a named function of the clients they share. */
export function createFlameActivities(deps: FlameActivityDeps, parts?: KindClientParts): FlameActivities {
  const flame = flameClients(deps, parts);
  return { applyFlameCluster: applyFlameCluster(flame), reportFlameStatus: reportFlameStatus(flame) };
}
