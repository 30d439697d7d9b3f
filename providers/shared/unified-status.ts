// The parts of a unified status that do not depend on the provider: the Ready condition that the
// provider owns (seed 000 "Status Ownership"), derived from the phase, with the seed's words.

import { ConditionReason, ConditionType } from '../../api/constants.ts';
import { conditionMessages } from '../../api/messages.ts';
import type { Phase } from '../../api/types.ts';
import type { UnifiedCondition, UnifiedEndpoint, UnifiedReplicas, UnifiedStatus } from '../contract.ts';

const IN_PROGRESS_MESSAGE = 'Deployment is in progress';

export function readyCondition(phase: Phase, message: string | undefined): UnifiedCondition {
  switch (phase) {
    case 'Running':
      return { type: ConditionType.Ready, status: 'True', reason: ConditionReason.DeploymentReady, message: conditionMessages.deploymentReady };
    case 'Failed':
      return { type: ConditionType.Ready, status: 'False', reason: ConditionReason.DeploymentFailed, message: message ?? 'Deployment failed' };
    default:
      return { type: ConditionType.Ready, status: 'False', reason: ConditionReason.DeploymentInProgress, message: message ?? IN_PROGRESS_MESSAGE };
  }
}

export function unifiedStatus(
  phase: Phase,
  message: string | undefined,
  replicas: UnifiedReplicas,
  endpoint: UnifiedEndpoint | undefined,
): UnifiedStatus {
  return {
    phase,
    ...(message !== undefined ? { message } : {}),
    replicas,
    ...(endpoint ? { endpoint } : {}),
    conditions: [readyCondition(phase, message)],
  };
}
