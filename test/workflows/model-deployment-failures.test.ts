// The ModelDeployment workflow with stub activities (model-deployment-stubs.ts) when steps fail: a
// provider nobody serves, a failing step's backoff and the retry update's answers; and continue-as-new.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { reconcileSignal, retryUpdate } from '../../workflows/engine/definitions.ts';
import { RETRY_REFUSED } from '../../workflows/engine/retry-refusal.ts';
import { FakeDeployment, PROVIDER, reconcileOutcome, sleep, stubEnvironment } from './model-deployment-stubs.ts';

const forbidden = () => {
  throw ApplicationFailure.create({ type: 'KubeForbidden', message: 'workspaces is forbidden', nonRetryable: true });
};

describe('modelDeploymentWorkflow failures with stub activities', () => {
  const { start } = stubEnvironment();

  it('a provider with no worker leaves the deployment Pending (ProviderUnavailable) until one serves its queue', async () => {
    const { fake, viewWhere, serveProvider } = await start(new FakeDeployment(), { providers: [], settings: { providerScheduleToStart: '2s' } });
    const unavailable = await viewWhere('ProviderUnavailable', (v) => v.lastError !== undefined);
    const message = `Provider '${PROVIDER}' is not available: no worker is serving its task queue`;
    expect(unavailable).toMatchObject({ phase: 'Pending', message, provider: PROVIDER, step: 'apply', failures: 1 });
    expect(unavailable.lastError).toMatchObject({ step: 'apply', type: 'ProviderUnavailable', message });
    // The selection is in status before the provider's call (code level 3: never a blank status while
    // no worker answers), then the core's status says the provider is unavailable.
    const selected = {
      provider: { name: PROVIDER, selectedReason: fake.selection.reason },
      validated: { status: 'True', reason: 'ValidationPassed', message: 'Spec validation passed' },
      providerSelected: { status: 'True', reason: 'AutoSelected', message: fake.selection.reason },
    };
    expect(fake.writes).toEqual([selected, { ...selected, phase: { phase: 'Pending', message } }]);

    // A worker comes: the next attempt (after the backoff) reconciles, and the core's Pending phase goes.
    await serveProvider(PROVIDER);
    const idle = await viewWhere('recovered', (v) => v.step === 'idle' && v.lastError === undefined, 45_000);
    expect(idle).toMatchObject({ phase: 'Running', failures: 0 });
    expect(fake.writes.at(-1)?.phase).toBeUndefined();
    expect(fake.writes.at(-1)?.provider?.name).toBe(PROVIDER);
  });

  it('backs off after a failed provider step; the retry update re-runs it at once and says how it went', async () => {
    const { fake, handle, viewWhere } = await start(new FakeDeployment(), { settings: { retryDelay: '1m', maxRetryDelay: '5m' } });
    await viewWhere('idle', (v) => v.step === 'idle');
    fake.reconcile = forbidden;
    await handle.signal(reconcileSignal, { reason: 'spec changed' });
    const failed = await viewWhere('the failure recorded', (v) => v.lastError !== undefined);
    expect(failed).toMatchObject({ failures: 1, step: 'apply', phase: 'Running' });
    expect(failed.lastError).toMatchObject({ step: 'apply', type: 'KubeForbidden', message: 'workspaces is forbidden' });
    // Not a ProviderUnavailable: the core's status is not touched.
    expect(fake.writes).toHaveLength(1);
    // The backoff is a minute: nothing runs meanwhile.
    const reconciles = fake.reconciles.length;
    await sleep(2_000);
    expect(fake.reconciles.length).toBe(reconciles);

    // Still failing: the update answers with the new error, and the failures count on.
    const again = await handle.executeUpdate(retryUpdate);
    expect(again).toMatchObject({ retried: 'apply', outcome: 'failed', previousError: { type: 'KubeForbidden' }, error: { step: 'apply', type: 'KubeForbidden' } });
    await viewWhere('two failures', (v) => v.failures === 2);

    fake.reconcile = () => reconcileOutcome('updated');
    const result = await handle.executeUpdate(retryUpdate);
    expect(result).toMatchObject({ retried: 'apply', outcome: 'succeeded', previousError: { type: 'KubeForbidden' } });
    expect(result.error).toBeUndefined();
    await viewWhere('recovered', (v) => v.lastError === undefined && v.failures === 0 && v.step === 'idle');
  });

  it("a failing core step (the assessment) is the pass's error too, retried after the backoff", async () => {
    const fake = new FakeDeployment();
    let failing = true;
    fake.beforeAssess = () => {
      if (failing) throw ApplicationFailure.create({ type: 'KubeForbidden', message: 'modeldeployments is forbidden', nonRetryable: true });
    };
    const { viewWhere } = await start(fake);
    const failed = await viewWhere('the failure recorded', (v) => v.lastError !== undefined);
    expect(failed.lastError).toMatchObject({ step: 'read', type: 'KubeForbidden', message: 'modeldeployments is forbidden' });
    // The core's own step failing is not a provider being unavailable: no Pending written.
    expect(failed.phase).toBeUndefined();
    expect(fake.writes).toEqual([]);
    failing = false;
    // The backoff (retryDelay 1s, doubling) brings the next attempt without a signal.
    await viewWhere('recovered', (v) => v.step === 'idle' && v.lastError === undefined);
  });

  it('the retry update on a deployment waiting (not failed) says which step waited and that it still waits', async () => {
    const fake = new FakeDeployment();
    fake.validation = { valid: false, message: 'spec.model.id is required', warnings: [] };
    const { handle, viewWhere } = await start(fake);
    await viewWhere('pending', (v) => v.phase === 'Pending');
    const result = await handle.executeUpdate(retryUpdate);
    expect(result).toEqual({ retried: 'validate', outcome: 'waiting' });
    expect(fake.assessed).toHaveLength(2);
  });

  it('the retry update on an idle deployment re-runs the pass and retried nothing in particular', async () => {
    const { fake, handle, viewWhere } = await start(new FakeDeployment());
    await viewWhere('idle', (v) => v.step === 'idle');
    const result = await handle.executeUpdate(retryUpdate);
    expect(result).toEqual({ outcome: 'succeeded' });
    // A retry is never the short pass: the whole pass ran.
    expect(fake.assessed).toHaveLength(2);
  });

  it('refuses the retry update on a paused deployment, before it is accepted, and runs no pass for it', async () => {
    const { fake, handle, viewWhere } = await start(new FakeDeployment({ paused: true }));
    await viewWhere('paused', (v) => v.step === 'paused');
    const assessed = fake.assessed.length;
    const refused = await handle.executeUpdate(retryUpdate).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(refused).toMatchObject({ cause: { type: RETRY_REFUSED, message: expect.stringMatching(/^reconciliation is paused by the kubeairunway\.ai\/reconcile-paused annotation/) } });
    // A refused update leaves nothing in the history, and the workflow goes on as before.
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.some((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toBe(false);
    expect(fake.assessed).toHaveLength(assessed);
    expect((await viewWhere('still paused', (v) => v.step === 'paused')).passes).toBe(1);
  });

  it('continues as new when the history grows, carrying the view and what it last wrote', async () => {
    const { fake, handle, viewWhere } = await start(new FakeDeployment(), { settings: { maxHistoryEvents: 30 } });
    await viewWhere('idle', (v) => v.step === 'idle');
    const firstRun = (await handle.describe()).runId;
    for (let i = 0; (await handle.describe()).runId === firstRun; i++) {
      expect(i, 'still the first run after 20 passes').toBeLessThan(20);
      const passes = (await viewWhere('settled', (v) => v.step === 'idle')).passes;
      await handle.signal(reconcileSignal, { reason: `change ${i}` });
      await viewWhere('one more pass', (v) => v.passes > passes);
    }
    // The signal that ended the first run's wait is the new run's first pass (every run starts with
    // one), and the view it carried counts on: every pass so far was a whole pass, one assessment each.
    const carried = await viewWhere('settled in the new run', (v) => v.step === 'idle');
    expect(carried).toMatchObject({ provider: PROVIDER, phase: 'Running', observedGeneration: 1, failures: 0 });
    expect(carried.passes).toBeGreaterThan(2);
    expect(carried.passes).toBe(fake.assessed.length);
    // The status it last wrote is carried too: the new run does not write the same status again.
    expect(fake.writes).toHaveLength(1);
    // And it selected once: the provider comes from the object.
    expect(fake.selections).toBe(1);
  });
});
