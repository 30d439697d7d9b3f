// What a run at the current code level (workflows/engine/code-level.ts) writes in its history: no patch
// marker and no TemporalChangeVersion upsert, and its memo only for a failure.
import type { temporal } from '@temporalio/proto';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { FakeDeployment, PROVIDER, reconcileOutcome, stubEnvironment } from './model-deployment-stubs.ts';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const patchMarkers = (events: HistoryEvent[]) => events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
const memoWrites = (events: HistoryEvent[]) => events.filter((e) => e.workflowPropertiesModifiedEventAttributes);
const upsertedKeys = (events: HistoryEvent[]) =>
  events.flatMap((e) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}));

describe('modelDeploymentWorkflow code levels', () => {
  const { start } = stubEnvironment();

  /** Create → Running, a status change by the provider's resource, then the deletion, with the provider in process. */
  async function lifecycle() {
    const fake = new FakeDeployment();
    fake.inProcessProviders = [PROVIDER];
    const { handle, result, viewWhere } = await start(fake, { providers: [], inProcess: [PROVIDER] });
    await viewWhere('idle', (v) => v.step === 'idle' && v.phase === 'Running');
    fake.reconcile = () => reconcileOutcome('unchanged', 'Deploying', 'a replica restarted');
    await handle.signal(reconcileSignal, { reason: 'resource status', fromResource: true });
    await viewWhere('the short pass', (v) => v.passes >= 2 && v.phase === 'Deploying');
    fake.delete();
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    const final = await result();
    return { fake, final, events: (await handle.fetchHistory()).events ?? [] };
  }

  it('a run at the current level takes every change without a patch marker and writes no memo when nothing fails', async () => {
    const { fake, final, events } = await lifecycle();
    expect(final).toMatchObject({ deleting: true, phase: 'Terminating', lastError: undefined });
    // The same steps as ever: one short pass, the in-process cleanup, the commit timer. One resync
    // timer the whole time beside it (pass-timer.ts), none canceled.
    expect(fake.localReconciles).toEqual([PROVIDER, PROVIDER]);
    expect(fake.localCleanups).toEqual([PROVIDER]);
    expect(events.filter((e) => e.timerStartedEventAttributes)).toHaveLength(2);
    expect(events.filter((e) => e.timerCanceledEventAttributes)).toEqual([]);
    expect(patchMarkers(events)).toEqual([]);
    expect(upsertedKeys(events)).not.toContain('TemporalChangeVersion');
    expect(memoWrites(events)).toEqual([]);
    // Search attributes follow the phase: Running, Deploying, Terminating.
    expect(upsertedKeys(events).filter((k) => k === 'MdPhase')).toHaveLength(3);
  });

  it('a failed pass writes its step and error to the memo, and a pass that succeeds clears them', async () => {
    const fake = new FakeDeployment();
    let failing = true;
    fake.beforeAssess = () => {
      if (failing) throw ApplicationFailure.create({ type: 'KubeForbidden', message: 'modeldeployments is forbidden', nonRetryable: true });
    };
    const { handle, viewWhere } = await start(fake);
    await viewWhere('the failure recorded', (v) => v.lastError !== undefined);
    failing = false;
    await viewWhere('recovered', (v) => v.step === 'idle' && v.lastError === undefined);
    const memos = memoWrites((await handle.fetchHistory()).events ?? []).map((e) => {
      const summary = e.workflowPropertiesModifiedEventAttributes?.upsertedMemo?.fields?.summary;
      return JSON.parse(Buffer.from(summary?.data ?? []).toString());
    });
    expect(memos).toEqual([
      { step: 'read', lastError: 'modeldeployments is forbidden' },
      { step: 'idle', lastError: null },
    ]);
  });
});
