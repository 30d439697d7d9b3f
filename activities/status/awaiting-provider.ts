// What a deployment shows between its selection and the provider's first report (pure).
//
// The core writes its selection before it calls the provider; the phase is the provider's to write, and
// a provider whose worker never takes the call writes none. Until the call fails as unavailable (up to
// the schedule-to-start bound, 30 s by default) `kubectl get md` showed no phase at all. A core write that
// carries a selection to an object that shows no phase yet says Pending instead: it is written with the
// selection, so the workflow issues nothing more, and the provider's first status apply (forced, as
// every apply here) takes the phase over.
import type { ModelDeploymentStatus } from '../../api/types.ts';
import type { CoreStatus } from '../../contract/core-activities.ts';

export function awaitingProviderPhase(stored: ModelDeploymentStatus | undefined, write: CoreStatus): CoreStatus['phase'] {
  if (write.phase || stored?.phase || !write.provider || write.paused) return write.phase;
  return { phase: 'Pending', message: `Waiting for provider '${write.provider.name}' to report on its resource` };
}
