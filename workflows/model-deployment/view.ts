import type { Phase } from '../../api/types.ts';
import type { LoopView } from '../engine/view.ts';

export type { RetryResult, StepError } from '../engine/view.ts';

export type Step =
  | 'read'
  | 'validate'
  | 'select-provider'
  | 'compatibility'
  | 'apply'
  | 'switch-provider'
  | 'cleanup'
  | 'idle'
  | 'paused';

/** A ModelDeployment workflow's view of its deployment: the loop's view plus provider, deletion and pause. */
export interface DeploymentView extends LoopView {
  phase: Phase | undefined;
  step: Step;
  provider: string | undefined;
  deleting: boolean;
  paused: boolean;
}
