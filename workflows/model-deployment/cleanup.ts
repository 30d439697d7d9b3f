import { sleep } from '@temporalio/workflow';
import type { DeploymentSnapshot } from '../../contract/core-activities.ts';
import { events } from '../../api/messages.ts';
import { deletionDeadline, untilDeadline } from '../engine/deletion-deadline.ts';
import { toMs } from '../engine/durations.ts';
import { stepError } from '../engine/step-error.ts';
import { PROVIDER_UNAVAILABLE } from '../../contract/failure-types.ts';
import type { PassState } from './pass-state.ts';

/** How the history names the timer that ends the cleanup's workflow task (user metadata: not part of determinism). */
const COMMIT_CLEANUP_SUMMARY = 'recorded the cleanup before completing';
/**
 * Deletion: the provider deletes its resources and the workflow waits until they are gone, woken by
 * their watch; at the deadline (deletionTimestamp + cleanupTimeout) the finalizer is removed anyway,
 * with a FinalizerTimeout event naming what may be left behind. The wait is reported in status
 * (phase Terminating) and by an event. A provider in the core worker's process cleans up as a local
 * activity. A provider that recorded no resource in status and whose worker does not take the cleanup
 * within its schedule-to-start bound made nothing to clean up: the finalizer goes at once instead of
 * at the deadline (should it have created a resource after all, the resource's owner reference to the
 * deployment lets Kubernetes' garbage collector delete it).
 */
export async function runCleanup(state: PassState, snap: DeploymentSnapshot): Promise<void> {
  state.view.deleting = true;
  state.view.phase = 'Terminating';
  state.at('cleanup', 'provider resources to be deleted');
  state.publish();
  const deadline = deletionDeadline(snap.deletionTimestamp, state.settings.cleanupTimeout);
  const provider = snap.selectedProvider;
  let remaining: string[] = provider ? [snap.resource ?? `resources of provider '${provider}'`] : [];
  const inProcess = provider !== undefined && state.inProcessProviders.has(provider);
  let gone = provider === undefined;
  if (provider !== undefined) {
    const nothingRecorded = snap.resource === undefined && !inProcess;
    gone = await untilDeadline(state, {
      deadline,
      pollMs: toMs(state.settings.pollInterval),
      deadlineCheck: 'after-wait',
      attempt: async () => {
        let done = false;
        try {
          const untilDeadlineMs = Math.max(deadline - Date.now(), 1_000);
          const scheduleToStartMs = nothingRecorded ? Math.min(toMs(state.settings.providerScheduleToStart), untilDeadlineMs) : untilDeadlineMs;
          const result = await state.cleanupResources(provider, state.ref, scheduleToStartMs, inProcess);
          done = result.gone;
          if (result.remaining.length > 0) remaining = result.remaining;
          state.view.lastError = undefined;
        } catch (err) {
          state.view.lastError = stepError('cleanup', err, `Provider '${provider}'`);
          done = nothingRecorded && state.view.lastError.type === PROVIDER_UNAVAILABLE;
        }
        state.publish();
        return done;
      },
      beforeWait: async (n) => {
        if (n === 1) await reportWaiting(state, snap, remaining, deadline);
      },
    });
  }
  if (!gone) {
    await state.core.recordEvent(state.ref, {
      type: 'Warning',
      reason: 'FinalizerTimeout',
      message: `${events.finalizerTimeout().message}: ${remaining.join(', ')}`,
    });
  }
  state.at('cleanup', 'finalizer removal');
  await state.core.removeFinalizer(state.ref);
  // With the provider in process, the whole deletion can run in one workflow task. A signal that
  // reaches the server meanwhile (a restarted watcher's first list sends several) makes it refuse to
  // complete the workflow in that task, and with the completion it drops the task's local-activity
  // markers: the history would lose the cleanup's steps. A timer first commits them; the completion
  // is a task of its own.
  if (inProcess) await sleep(1, { summary: COMMIT_CLEANUP_SUMMARY });
}

/**
 * The seed's Terminating phase while the deletion waits (the provider wrote Running until now and no
 * longer observes), and one event saying what it waits for and until when: `kubectl get md` and
 * `kubectl describe md` show a deletion in progress, not a deployment still running.
 */
async function reportWaiting(state: PassState, snap: DeploymentSnapshot, remaining: string[], deadline: number): Promise<void> {
  const until = new Date(deadline).toISOString();
  const message = `Waiting for provider '${snap.selectedProvider}' to delete ${remaining.join(', ')} (at most until ${until}, then the finalizer is removed anyway)`;
  // Everything the core owns goes into the apply again (SSA drops what an apply leaves out), from this
  // run's memory or, in a run that never wrote it, from the object as read.
  const owned = state.coreStatus ?? {
    provider: snap.selectedProvider ? { name: snap.selectedProvider, selectedReason: snap.selectedReason ?? '' } : undefined,
    validated: snap.validated,
    providerSelected: snap.providerSelected,
  };
  await state.writeCore({ ...owned, phase: { phase: 'Terminating', message } });
  await state.core.recordEvent(state.ref, { type: 'Normal', reason: 'WaitingForCleanup', message });
}
