import { sleep } from '@temporalio/workflow';
import type { DeploymentSnapshot } from '../../contract/core-activities.ts';
import { events } from '../../api/messages.ts';
import { deletionDeadline, untilDeadline } from '../engine/deletion-deadline.ts';
import { toMs } from '../engine/durations.ts';
import { stepError } from '../engine/step-error.ts';
import { PROVIDER_UNAVAILABLE } from '../../contract/failure-types.ts';
import type { DeploymentState } from './deployment-state.ts';

/** Patch ID (see `ObjectReconciler.takes`): guards a change in the commands the cleanup issues. */
const CLEANUP_CLEARS_BEFORE_ATTEMPT = 'cleanup-clears-signal-before-attempt';
/** Patch ID: the cleanup reports itself in status (phase Terminating) and by an event when it has to wait. */
const CLEANUP_REPORTS_ITS_WAIT = 'cleanup-reports-its-wait';
/** Patch ID: an in-process provider's cleanup runs as a local activity, and a timer ends the task before the workflow does. */
const CLEANUP_IN_PROCESS = 'cleanup-in-process-provider';
/** How the history names the timer that ends the cleanup's workflow task (user metadata: not part of determinism). */
const COMMIT_CLEANUP_SUMMARY = 'recorded the cleanup before completing';
/**
 * Patch ID, for level 4: a provider that recorded no resource in status and whose worker does not take
 * the cleanup within its schedule-to-start bound made nothing to clean up, so the finalizer goes at once
 * instead of at the deadline (5 minutes by default). Should it have created a resource after all, the
 * resource's owner reference to the deployment lets Kubernetes' garbage collector delete it.
 */
const UNSERVED_PROVIDER_MADE_NOTHING = 'cleanup-unserved-provider-made-nothing';

/**
 * Deletion: the provider deletes its resources and the workflow waits until they are gone, woken by
 * their watch; at the deadline (deletionTimestamp + cleanupTimeout) the finalizer is removed anyway,
 * with a FinalizerTimeout event naming what may be left behind.
 */
export async function runCleanup(state: DeploymentState, snap: DeploymentSnapshot): Promise<void> {
  state.view.deleting = true;
  state.view.phase = 'Terminating';
  state.at('cleanup', 'provider resources to be deleted');
  state.publish();
  const deadline = deletionDeadline(snap.deletionTimestamp, state.settings.cleanupTimeout);
  const provider = snap.selectedProvider;
  let remaining: string[] = provider ? [snap.resource ?? `resources of provider '${provider}'`] : [];
  const inProcess = provider !== undefined && state.inProcessProviders.has(provider) && state.takes(CLEANUP_IN_PROCESS);
  let gone = provider === undefined;
  if (provider !== undefined) {
    // Cleared before each attempt, so a deletion reported while it runs still wakes the wait.
    // Histories recorded before this change cleared it after the attempt (and started a timer).
    const clearBeforeAttempt = state.takes(CLEANUP_CLEARS_BEFORE_ATTEMPT);
    const nothingRecorded = snap.resource === undefined && !inProcess && state.takes(UNSERVED_PROVIDER_MADE_NOTHING, 4);
    gone = await untilDeadline(state, {
      deadline,
      pollMs: toMs(state.settings.pollInterval),
      deadlineCheck: 'after-wait',
      clearBeforeAttempt,
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
        if (n === 1 && state.takes(CLEANUP_REPORTS_ITS_WAIT)) await reportWaiting(state, snap, remaining, deadline);
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
async function reportWaiting(state: DeploymentState, snap: DeploymentSnapshot, remaining: string[], deadline: number): Promise<void> {
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
