import type { AsyaActivities } from '../../contract/asya-activities.ts';
import { renderStandalone } from '../../render/asya/render.ts';
import { applyAsAsya, CONFIG_MAPS, validActor, workloadResource, type AsyaClients } from './asya-clients.ts';
import { applyScaling } from './scaling.ts';

/** A standalone actor's children: the runtime ConfigMap, its workload, and (with scaling) the ScaledObject. */
export function applyStandalone(asya: AsyaClients): AsyaActivities['applyStandalone'] {
  return async function applyStandalone(ref) {
    const actor = await validActor(asya, ref);
    const children = renderStandalone(actor);
    const namespace = ref.namespace;
    await applyAsAsya(asya, { ...CONFIG_MAPS, namespace, name: children.runtimeConfigMap.metadata!.name! }, children.runtimeConfigMap);
    const kind = children.workload.kind ?? 'Deployment';
    const stored = await applyAsAsya(asya, workloadResource(kind, namespace, children.workload.metadata!.name!), children.workload);
    const status = (stored.status ?? {}) as { replicas?: number; readyReplicas?: number };
    const spec = (stored.spec ?? {}) as { replicas?: number };
    return {
      workload: `${kind}/${namespace}/${children.workload.metadata!.name}`,
      replicas: spec.replicas ?? status.replicas ?? 0,
      readyReplicas: status.readyReplicas ?? 0,
      scaling: await applyScaling(asya, actor, children.scaledObject),
      changes: [],
    };
  };
}
