// The messages of the AsyncActor rules the API server enforces (CEL), word for word the same in
// validateAsyncActor, so `kubectl apply` and the workflow answer alike. The first is the seed's (ADR-001).

import { MAX_ACTOR_NAME_LENGTH } from './patterns.ts';

export const AsyncActorMessage = {
  exactlyOneWorkload: "Exactly one of 'workload' or 'workloadRef' must be set",
  runtimeRequired: "'runtime' is required when 'workloadRef' is set",
  runtimeForbidden: "'runtime' must not be set with 'workload'",
  oneTarget: "Only one of 'runtime.targetURL' or 'runtime.targetService' may be set",
  targetRequired:
    "One of 'runtime.targetURL' or 'runtime.targetService' must be set, unless 'workloadRef' is a ModelDeployment (its status.endpoint is used)",
  scalingBounds: "'scaling.minReplicas' must not be greater than 'scaling.maxReplicas'",
  workloadRefApiVersion:
    "'workloadRef.apiVersion' must be apps/v1 for a Deployment or StatefulSet, kaito.sh/<version> for a Workspace, kubeairunway.ai/v1alpha1 for a ModelDeployment",
  actorName: `metadata.name must be a DNS-1123 label (at most ${MAX_ACTOR_NAME_LENGTH} lower-case letters, digits and '-', starting and ending with a letter or digit), since it is the value of the asya.sh/managed-by label and names the queue`,
} as const;
