// Which mode an actor runs in: implicit in which of `workload` and `workloadRef` is set (ADR-001).

import type { Mode } from './constants.ts';
import type { AsyncActorSpec } from './types.ts';

export function modeOf(spec: Pick<AsyncActorSpec, 'workloadRef'>): Mode {
  return spec.workloadRef ? 'Binding' : 'Standalone';
}
