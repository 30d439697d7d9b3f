// The KEDA ScaledObject of an actor, in either mode: named after the actor, owned by it, scaling
// `scaleTargetRef` on the depth of queue `asya-<actor>`.
//
// The broker is reached through the namespace's TriggerAuthentication `asya-<transport>` (rabbitmq: the
// `host` AMQP URL; sqs: `awsRegion` plus credentials or pod identity), never through `hostFromEnv`:
// KEDA resolves env from the scale target's pod template, and a ModelDeployment target has none.

import {
  KEDA_API_VERSION,
  queueName,
  SCALED_OBJECT_KIND,
  SOURCE_GENERATION_ANNOTATION,
  TRIGGER_AUTHENTICATION_KIND,
  transportConnectionName,
} from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { controllerReference, managedByLabels, namespaceOf } from './render-metadata.ts';

export interface ScaleTarget {
  apiVersion: string;
  kind: string;
  name: string;
}

export function renderScaledObject(actor: AsyncActor, scaleTarget: ScaleTarget): AnyObject {
  const { scaling } = actor.spec;
  const generation = actor.metadata.generation;
  return {
    apiVersion: KEDA_API_VERSION,
    kind: SCALED_OBJECT_KIND,
    metadata: {
      name: actor.metadata.name,
      ...namespaceOf(actor),
      labels: managedByLabels(actor),
      // Which spec it was rendered from; absent offline, where there is no generation.
      ...(generation !== undefined ? { annotations: { [SOURCE_GENERATION_ANNOTATION]: String(generation) } } : {}),
      ownerReferences: [controllerReference(actor)],
    },
    spec: {
      scaleTargetRef: { apiVersion: scaleTarget.apiVersion, kind: scaleTarget.kind, name: scaleTarget.name },
      minReplicaCount: scaling.minReplicas,
      maxReplicaCount: scaling.maxReplicas,
      pollingInterval: scaling.pollingInterval,
      cooldownPeriod: scaling.cooldownPeriod,
      advanced: { horizontalPodAutoscalerConfig: { behavior: hpaBehavior() } },
      triggers: [trigger(actor)],
    },
  };
}

/**
 * Upstream's behaviour against thrashing: scale down one pod a minute, only after five quiet minutes;
 * scale up at once by whichever is more, 10 pods or 100%, each minute.
 */
function hpaBehavior(): Record<string, unknown> {
  return {
    scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    scaleUp: {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 10, periodSeconds: 60 },
        { type: 'Percent', value: 100, periodSeconds: 60 },
      ],
    },
  };
}

function trigger(actor: AsyncActor): Record<string, unknown> {
  const { transport, scaling } = actor.spec;
  const authenticationRef = { name: transportConnectionName(transport), kind: TRIGGER_AUTHENTICATION_KIND };
  if (transport === 'sqs') {
    // The queue's short name is enough for KEDA when it is unambiguous in the account and region.
    return { type: 'aws-sqs-queue', metadata: { queueURL: queueName(actor), queueLength: String(scaling.queueLength) }, authenticationRef };
  }
  return {
    type: 'rabbitmq',
    metadata: { protocol: 'amqp', queueName: queueName(actor), mode: 'QueueLength', value: String(scaling.queueLength) },
    authenticationRef,
  };
}
