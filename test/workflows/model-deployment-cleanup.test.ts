// The ModelDeployment workflow with stub activities (model-deployment-stubs.ts) when a provider has to
// remove its resources: the deletion's bounded cleanup, and a switch to another explicit provider.
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { events as messages } from '../../api/messages.ts';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { eventually } from '../support/env.ts';
import { EXPLICIT_SELECTION, FakeDeployment, PROVIDER, stubEnvironment } from './model-deployment-stubs.ts';

const RESOURCE = 'StubModel default/x';
const TIMEOUT_MESSAGE = messages.finalizerTimeout().message;

describe('modelDeploymentWorkflow deletion with stub activities', () => {
  const { start, clock } = stubEnvironment();

  it('removes the finalizer at once when the provider says its resources are gone', async () => {
    const { fake, handle, result, viewWhere } = await start(new FakeDeployment());
    await viewWhere('idle', (v) => v.step === 'idle');
    fake.delete();
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    const final = await result();
    expect(final).toMatchObject({ deleting: true, phase: 'Terminating', step: 'cleanup', waitingFor: 'finalizer removal', lastError: undefined });
    expect(fake.cleanups).toEqual([{ provider: PROVIDER, ref: fake.ref }]);
    expect(fake.finalizersRemoved).toBe(1);
    // Nothing to wait for: no Terminating status, no event.
    expect(fake.events).toEqual([]);
    expect(fake.writes).toHaveLength(1);
  });

  it("runs an in-process provider's cleanup as a local activity, and a timer commits its markers before the end", async () => {
    const fake = new FakeDeployment();
    fake.inProcessProviders = [PROVIDER];
    // No worker on the provider's task queue: only the local activities can answer.
    const { handle, result, viewWhere } = await start(fake, { providers: [], inProcess: [PROVIDER] });
    await viewWhere('idle', (v) => v.step === 'idle');
    fake.delete();
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    await result();
    expect(fake.localCleanups).toEqual([PROVIDER]);
    expect(fake.cleanups).toHaveLength(1);
    expect(fake.finalizersRemoved).toBe(1);
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.some((e) => e.activityTaskScheduledEventAttributes)).toBe(false);
    // The last task before the completion ends with the timer, after the cleanup's markers.
    const lastIndex = (has: (e: (typeof events)[number]) => unknown) => events.map((e, i) => (has(e) ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
    const timer = lastIndex((e) => e.timerStartedEventAttributes);
    const lastMarker = lastIndex((e) => e.markerRecordedEventAttributes);
    expect(timer).toBeGreaterThan(lastMarker);
    expect(events.at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
  });

  it('a worker that does not serve the in-process provider sends its cleanup to the task queue', async () => {
    const fake = new FakeDeployment();
    fake.inProcessProviders = [PROVIDER];
    const { handle, result, viewWhere } = await start(fake, { providers: [PROVIDER], inProcess: [] });
    await viewWhere('idle', (v) => v.step === 'idle');
    fake.delete();
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    await result();
    expect(fake.localCleanups).toEqual([]);
    expect(fake.cleanups).toHaveLength(1);
    expect(fake.finalizersRemoved).toBe(1);
  });

  it('removes the finalizer without a cleanup when no provider was ever selected', async () => {
    const fake = new FakeDeployment();
    fake.validation = { valid: false, message: 'spec.model.id is required', warnings: [] };
    const { handle, result, viewWhere } = await start(fake);
    await viewWhere('pending', (v) => v.phase === 'Pending');
    fake.delete();
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    await result();
    expect(fake.cleanups).toEqual([]);
    expect(fake.finalizersRemoved).toBe(1);
    expect(fake.events).toEqual([]);
  });

  it('ends without touching a deleting object that does not carry the finalizer', async () => {
    const fake = new FakeDeployment({ hasFinalizer: false, selectedProvider: PROVIDER });
    fake.delete();
    const { result } = await start(fake);
    await result();
    expect(fake.cleanups).toEqual([]);
    expect(fake.finalizersRemoved).toBe(0);
  });

  it('while the provider deletes: Terminating status and one WaitingForCleanup event; a signal wakes the next attempt', async () => {
    // A poll interval longer than the test: every attempt after the first is woken by a signal.
    const { fake, handle, result, viewWhere } = await start(new FakeDeployment(), { settings: { pollInterval: '1m', cleanupTimeout: '2m' } });
    await viewWhere('idle', (v) => v.step === 'idle');
    const deletedAt = clock.now();
    fake.delete(deletedAt);
    fake.cleanup = () => ({ gone: false, remaining: [RESOURCE] });
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    await eventually('the wait reported', async () => fake.events.length > 0 || undefined, 30_000);
    const waiting = await viewWhere('cleaning up', (v) => v.step === 'cleanup');
    expect(waiting).toMatchObject({ deleting: true, phase: 'Terminating', waitingFor: 'provider resources to be deleted', lastError: undefined });

    const message = `Waiting for provider '${PROVIDER}' to delete ${RESOURCE} (at most until ${new Date(deletedAt.getTime() + 120_000).toISOString()}, then the finalizer is removed anyway)`;
    expect(fake.events).toEqual([{ type: 'Normal', reason: 'WaitingForCleanup', message }]);
    // Everything the core owns, from the run's memory, with the Terminating phase.
    expect(fake.writes.at(-1)).toEqual({ ...fake.writes[0], phase: { phase: 'Terminating', message } });
    expect(fake.cleanups).toHaveLength(1);

    // The provider's resource changed: another attempt at once, still waiting, no second event.
    await handle.signal(reconcileSignal, { reason: 'resource deleting', fromResource: true });
    await eventually('a second attempt', async () => fake.cleanups.length >= 2 || undefined, 10_000);
    expect(fake.events).toHaveLength(1);

    fake.cleanup = () => ({ gone: true, remaining: [] });
    await handle.signal(reconcileSignal, { reason: 'resource gone', fromResource: true });
    await result();
    expect(fake.cleanups).toHaveLength(3);
    expect(fake.finalizersRemoved).toBe(1);
    expect(fake.events.map((e) => e.reason)).toEqual(['WaitingForCleanup']);
  });

  it('polls the provider while it deletes, and stops once it is done', async () => {
    const fake = new FakeDeployment({ selectedProvider: PROVIDER, selectedReason: 'recorded' });
    fake.delete();
    let attempts = 0;
    fake.cleanup = () => (++attempts < 3 ? { gone: false, remaining: [RESOURCE] } : { gone: true, remaining: [] });
    const { result } = await start(fake);
    await result();
    expect(fake.cleanups).toHaveLength(3);
    expect(fake.finalizersRemoved).toBe(1);
    expect(fake.events.map((e) => e.reason)).toEqual(['WaitingForCleanup']);
    // A run that never wrote the status writes back what the object has, with the Terminating phase.
    expect(fake.writes).toEqual([{ provider: { name: PROVIDER, selectedReason: 'recorded' }, phase: { phase: 'Terminating', message: fake.events[0]!.message } }]);
  });

  it('removes the finalizer at the deadline with a FinalizerTimeout event naming what is left', async () => {
    const fake = new FakeDeployment({ selectedProvider: PROVIDER });
    fake.delete();
    fake.cleanup = () => ({ gone: false, remaining: [RESOURCE] });
    const t0 = clock.nowMs();
    const { result } = await start(fake, { settings: { cleanupTimeout: '3s' } });
    await result();
    // In the workflows' time, which skipped ahead while the result was awaited.
    await clock.refresh();
    expect(clock.nowMs() - t0).toBeGreaterThanOrEqual(2_000);
    expect(fake.cleanups.length).toBeGreaterThanOrEqual(2);
    expect(fake.events.map((e) => e.reason)).toEqual(['WaitingForCleanup', 'FinalizerTimeout']);
    expect(fake.events[1]).toEqual({ type: 'Warning', reason: 'FinalizerTimeout', message: `${TIMEOUT_MESSAGE}: ${RESOURCE}` });
    expect(fake.finalizersRemoved).toBe(1);
  });

  it('makes one attempt when the deadline passed before the workflow saw the deletion', async () => {
    const fake = new FakeDeployment({ selectedProvider: PROVIDER, resource: RESOURCE });
    fake.delete(new Date(clock.nowMs() - 3_600_000));
    fake.cleanup = () => ({ gone: false, remaining: [] });
    const { result } = await start(fake, { settings: { cleanupTimeout: '5s' } });
    await result();
    expect(fake.cleanups).toHaveLength(1);
    // The provider named nothing: the event names the resource the status recorded.
    expect(fake.events.at(-1)).toEqual({ type: 'Warning', reason: 'FinalizerTimeout', message: `${TIMEOUT_MESSAGE}: ${RESOURCE}` });
    expect(fake.finalizersRemoved).toBe(1);
  });

  it('a failing cleanup is shown in the view and bounded by the deadline', async () => {
    const fake = new FakeDeployment({ selectedProvider: PROVIDER });
    fake.delete();
    fake.cleanup = () => {
      throw ApplicationFailure.create({ type: 'KubeForbidden', message: 'workspaces is forbidden', nonRetryable: true });
    };
    const { result, viewWhere } = await start(fake, { settings: { cleanupTimeout: '5s' } });
    const failing = await viewWhere('the failure shown', (v) => v.lastError !== undefined);
    expect(failing).toMatchObject({ step: 'cleanup', phase: 'Terminating', deleting: true });
    expect(failing.lastError).toMatchObject({ step: 'cleanup', type: 'KubeForbidden', message: 'workspaces is forbidden' });
    const final = await result();
    // The pass itself ended well: the loop clears the cleanup's last error.
    expect(final.lastError).toBeUndefined();
    expect(fake.events.at(-1)).toEqual({ type: 'Warning', reason: 'FinalizerTimeout', message: `${TIMEOUT_MESSAGE}: resources of provider '${PROVIDER}'` });
    expect(fake.finalizersRemoved).toBe(1);
  });

  it('a provider nobody serves cannot hold the deletion past its deadline', async () => {
    const fake = new FakeDeployment({ selectedProvider: PROVIDER, resource: RESOURCE });
    fake.delete();
    const { result } = await start(fake, { providers: [], settings: { cleanupTimeout: '3s' } });
    await result();
    expect(fake.events.map((e) => e.reason)).toEqual(['WaitingForCleanup', 'FinalizerTimeout']);
    expect(fake.finalizersRemoved).toBe(1);
  });
});

describe('modelDeploymentWorkflow provider switch with stub activities', () => {
  const { start } = stubEnvironment();

  /** Recorded on 'old', the spec now names 'new'. */
  function switching(): FakeDeployment {
    const fake = new FakeDeployment({ selectedProvider: 'old', selectedReason: EXPLICIT_SELECTION, explicitProvider: 'new', resourceVersion: '300' });
    fake.selection = { provider: 'new', reason: EXPLICIT_SELECTION, message: undefined, rejected: [] };
    return fake;
  }

  it('the old provider removes its resources, then the new one is selected and reconciles', async () => {
    const fake = switching();
    const { viewWhere } = await start(fake, { providers: ['old', 'new'] });
    const idle = await viewWhere('idle on the new provider', (v) => v.step === 'idle');
    expect(idle).toMatchObject({ provider: 'new', phase: 'Running', lastError: undefined });
    const seen = { ...fake.ref, seenVersion: '300' };
    expect(fake.cleanups).toEqual([{ provider: 'old', ref: seen }]);
    expect(fake.reconciles).toEqual([{ provider: 'new', ref: seen }]);
    // Selected after the switch (the assessment leaves a pending switch's selection to the pass).
    expect(fake.selections).toBe(1);
    // While it waits, the status says so (code level 3): phase Pending and ProviderSelected=False.
    const waitMessage = expect.stringMatching(/^Switching from provider 'old' to 'new': waiting for 'old' to remove its resources, at most until \d{4}-/);
    expect(fake.writes).toEqual([
      {
        observedGeneration: 1,
        provider: { name: 'old', selectedReason: EXPLICIT_SELECTION },
        validated: { status: 'True', reason: 'ValidationPassed', message: 'Spec validation passed' },
        providerSelected: { status: 'False', reason: 'ProviderSwitching', message: waitMessage },
        phase: { phase: 'Pending', message: waitMessage },
      },
      {
        provider: { name: 'new', selectedReason: EXPLICIT_SELECTION },
        validated: { status: 'True', reason: 'ValidationPassed', message: 'Spec validation passed' },
        providerSelected: { status: 'True', reason: 'ExplicitSelection', message: EXPLICIT_SELECTION },
        // The core's phase stays until the new provider has written its own; the next write releases it.
        phase: { phase: 'Pending', message: waitMessage },
      },
      {
        provider: { name: 'new', selectedReason: EXPLICIT_SELECTION },
        validated: { status: 'True', reason: 'ValidationPassed', message: 'Spec validation passed' },
        providerSelected: { status: 'True', reason: 'ExplicitSelection', message: EXPLICIT_SELECTION },
      },
    ]);
    expect(fake.events).toEqual([]);
  });

  it('leaves a provider no worker ever served at once: no cleanup call, a ProviderSwitched event', async () => {
    const fake = switching();
    fake.leaving = { reported: false, served: false };
    const { viewWhere } = await start(fake, { providers: ['new'], settings: { cleanupTimeout: '5m' } });
    const idle = await viewWhere('idle on the new provider', (v) => v.step === 'idle' && v.provider === 'new', 20_000);
    expect(idle.lastError).toBeUndefined();
    expect(fake.cleanups).toEqual([]);
    expect(fake.events).toEqual([
      {
        type: 'Normal',
        reason: 'ProviderSwitched',
        message: "Switching from provider 'old' to 'new' without its cleanup: no worker has ever served provider 'old' (its InferenceProviderConfig was never reported by a worker)",
      },
    ]);
    expect(fake.reconciles.map((r) => r.provider)).toEqual(['new']);
  });

  it('leaves a provider no worker serves now at once when status records no resource of it', async () => {
    const fake = switching();
    fake.leaving = { reported: true, served: false };
    const { viewWhere } = await start(fake, { providers: ['new'], settings: { cleanupTimeout: '5m' } });
    await viewWhere('idle on the new provider', (v) => v.step === 'idle' && v.provider === 'new', 20_000);
    expect(fake.cleanups).toEqual([]);
    expect(fake.events.map((e) => e.message)).toEqual(["Switching from provider 'old' to 'new' without its cleanup: no worker serves provider 'old' now and status records no resource of it"]);
  });

  it('waits, visibly, for a provider no worker serves now when status records a resource of it', async () => {
    const fake = new FakeDeployment({ selectedProvider: 'old', selectedReason: EXPLICIT_SELECTION, explicitProvider: 'new', resourceVersion: '300', resource: 'OldModel default/x' });
    fake.selection = { provider: 'new', reason: EXPLICIT_SELECTION, message: undefined, rejected: [] };
    fake.leaving = { reported: true, served: false };
    const { viewWhere, skipUntil } = await start(fake, { providers: ['new'], settings: { cleanupTimeout: '4s' } });
    await viewWhere('switching', (v) => v.step === 'switch-provider');
    expect(fake.writes[0]?.phase?.message).toMatch(/^Switching from provider 'old' to 'new': waiting for 'old' to remove its resources; no worker serves 'old' now, at most until /);
    await skipUntil('idle on the new provider', (v) => v.step === 'idle' && v.provider === 'new');
    expect(fake.events.map((e) => e.reason)).toEqual(['ProviderSwitchTimeout']);
  });

  it('waits for the old provider at most the cleanup timeout, then switches with a ProviderSwitchTimeout event', async () => {
    const fake = switching();
    fake.cleanup = () => ({ gone: false, remaining: ['OldModel default/x'] });
    const { viewWhere, skipUntil } = await start(fake, { providers: ['old', 'new'], settings: { cleanupTimeout: '4s' } });
    const waiting = await viewWhere('switching', (v) => v.step === 'switch-provider');
    expect(waiting).toMatchObject({ waitingFor: "provider 'old' to remove its resources", provider: 'old', lastError: undefined });
    const idle = await skipUntil('idle on the new provider', (v) => v.step === 'idle' && v.provider === 'new');
    expect(idle.lastError).toBeUndefined();
    // Polled meanwhile, not only tried once.
    expect(fake.cleanups.length).toBeGreaterThanOrEqual(2);
    expect(fake.cleanups.every((c) => c.provider === 'old')).toBe(true);
    expect(fake.events).toEqual([
      {
        type: 'Warning',
        reason: 'ProviderSwitchTimeout',
        message: "Provider 'old' did not remove its resources within 4s; switching to 'new' anyway, these may be orphaned: OldModel default/x",
      },
    ]);
    expect(fake.reconciles.map((r) => r.provider)).toEqual(['new']);
  });

  it("an old provider's failing cleanup is named in what the switch waits for", async () => {
    const fake = switching();
    fake.cleanup = () => {
      throw ApplicationFailure.create({ type: 'KubeForbidden', message: 'oldmodels is forbidden', nonRetryable: true });
    };
    const { viewWhere, skipUntil } = await start(fake, { providers: ['old', 'new'], settings: { cleanupTimeout: '4s' } });
    const waiting = await viewWhere('the failure named', (v) => v.waitingFor?.includes('KubeForbidden') ?? false);
    expect(waiting.step).toBe('switch-provider');
    expect(waiting.waitingFor).toMatch(/^provider 'old' to remove its resources \(KubeForbidden: oldmodels is forbidden\), at most until \d{4}-/);
    await skipUntil('idle on the new provider', (v) => v.step === 'idle' && v.provider === 'new');
    expect(fake.events.map((e) => e.message)).toEqual([expect.stringMatching(/these may be orphaned: resources of provider 'old'$/)]);
  });

  it('keeps its deadline across continue-as-new', async () => {
    const fake = switching();
    fake.cleanup = () => ({ gone: false, remaining: ['OldModel default/x'] });
    const { handle, skipUntil } = await start(fake, { providers: ['old', 'new'], settings: { cleanupTimeout: '6s', maxHistoryEvents: 20 } });
    const firstRun = (await handle.describe()).runId;
    // A run lasts a couple of polls: were the deadline restarted by each run, the switch would never end.
    await skipUntil('idle on the new provider', (v) => v.step === 'idle' && v.provider === 'new');
    expect((await handle.describe()).runId).not.toBe(firstRun);
    expect(fake.events.map((e) => e.reason)).toEqual(['ProviderSwitchTimeout']);
  });
});
