import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { validateFlameCluster } from '../../api/flame/validate.ts';
import type { FlameActivities } from '../../contract/flame-activities.ts';
import { renderFlameCluster } from '../../render/flame/render.ts';
import { applyConfigMap } from './config-map.ts';
import { childrenOf, PODS, type FlameClients } from './flame-clients.ts';
import { applyPods } from './pods.ts';
import { applyServices } from './services.ts';

/** One pass over the cluster's children: its configuration, its Services, its pods; what changed is one event. */
export function applyFlameCluster(flame: FlameClients): FlameActivities['applyFlameCluster'] {
  return async function applyFlameCluster(ref) {
    const cluster = await flame.clusters.read(ref);
    if (!cluster) return { found: false, changes: [] };
    const seen = { resourceVersion: cluster.metadata.resourceVersion, generation: cluster.metadata.generation };
    if (cluster.metadata.deletionTimestamp) return { found: true, deleting: true, ...seen, changes: [] };
    if (cluster.metadata.annotations?.[PAUSE_ANNOTATION] === 'true') return { found: true, paused: true, ...seen, changes: [] };
    const validation = validateFlameCluster(cluster);
    if (!validation.valid) {
      flame.clusters.refuse(ref, validation.message);
      return { found: true, ...seen, invalid: validation.message, changes: [] };
    }
    const children = renderFlameCluster(validation.cluster);
    // Read first: when the ConfigMap is gone, the pods tell which configuration was last written.
    const existing = await childrenOf(flame, PODS, ref);
    const config = await applyConfigMap(flame, ref, cluster, existing, children);
    const changes = [...(config.change ? [config.change] : []), ...(await applyServices(flame, ref, children.services))];
    const pods = await applyPods(flame, ref, [children.sessionManagerPod, ...children.executorPods], existing);
    changes.push(...pods.changes);
    if (changes.length > 0) flame.clusters.post(ref, { type: 'Normal', reason: 'Reconciled', message: changes.join('; ') });
    const { waiting } = pods;
    return {
      found: true,
      ...seen,
      configGeneration: config.configGeneration,
      changes,
      ...(waiting.length > 0 ? { waitingFor: `pod${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')} to terminate` } : {}),
    };
  };
}
