import { ASYA_FIELD_MANAGER } from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import type { ActorCondition } from '../../contract/asya-activities.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { classifyKubeError, toActivityFailure } from '../../kube/errors.ts';
import { scaledObjectResource, type AsyaClients } from './asya-clients.ts';

/** Applies or removes the actor's ScaledObject; KEDA not installed is a condition, not a failure. */
export async function applyScaling(asya: AsyaClients, actor: AsyncActor, scaledObject: AnyObject | undefined): Promise<ActorCondition> {
  const resource = scaledObjectResource(actor.metadata.namespace!, actor.metadata.name);
  try {
    if (!scaledObject) {
      await asya.objects.remove(resource);
      return { type: 'ScalingReady', status: 'True', reason: 'ScalingDisabled', message: 'spec.scaling.enabled is false: the replica count is fixed' };
    }
    await asya.objects.apply(resource, scaledObject, ASYA_FIELD_MANAGER);
    const { minReplicas, maxReplicas, queueLength } = actor.spec.scaling;
    return { type: 'ScalingReady', status: 'True', reason: 'ScaledObjectApplied', message: `KEDA scales ${minReplicas}..${maxReplicas} replicas at ${queueLength} messages per replica` };
  } catch (err) {
    const failure = classifyKubeError(err);
    if (failure.type === 'NoKindMatch' || failure.type === 'NotFound') {
      return { type: 'ScalingReady', status: scaledObject ? 'False' : 'True', reason: 'KedaNotInstalled', message: 'KEDA (keda.sh ScaledObject) is not installed in the cluster' };
    }
    throw toActivityFailure(err, 'apply ScaledObject');
  }
}
