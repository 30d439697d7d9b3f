// The ModelDeployment workflow's pass with stub activities (model-deployment-stubs.ts): every way a
// pass ends before the provider, every apply result after it, and the resource-change shortcut.
// Failures, retries and continue-as-new: model-deployment-failures.test.ts; deletion and provider
// switch: model-deployment-cleanup.test.ts.
import { describe, expect, it } from 'vitest';
import type { ApplyResult } from '../../contract/provider-activities.ts';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { eventually } from '../support/env.ts';
import { EXPLICIT_SELECTION, FakeDeployment, PROVIDER, reconcileOutcome, sleep, stubEnvironment } from './model-deployment-stubs.ts';

const VALIDATED = { status: 'True', reason: 'ValidationPassed', message: 'Spec validation passed' };

describe('modelDeploymentWorkflow passes with stub activities', () => {
  const { start } = stubEnvironment();

  it('ends when the object is gone', async () => {
    const { fake, handle, result } = await start(new FakeDeployment());
    fake.object = null;
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    const final = await result();
    expect(final.passes).toBeGreaterThanOrEqual(1);
    expect(fake.finalizersRemoved).toBe(0);
  });

  it('ends when the name now belongs to another incarnation (a different uid)', async () => {
    const fake = new FakeDeployment();
    fake.edit({ uid: 'someone-else' });
    const { result } = await start(fake);
    const final = await result();
    expect(final).toMatchObject({ passes: 1, provider: undefined, phase: undefined });
    expect(fake.reconciles).toEqual([]);
    expect(fake.writes).toEqual([]);
  });

  it('selects a provider, has it reconcile the resource, writes the selection and settles idle', async () => {
    const { fake, viewWhere } = await start(new FakeDeployment({ resourceVersion: '200', generation: 3 }));
    const idle = await viewWhere('idle', (v) => v.step === 'idle');
    expect(idle).toMatchObject({ phase: 'Running', message: 'All replicas ready', provider: PROVIDER, observedGeneration: 3, waitingFor: undefined, failures: 0, paused: false, deleting: false });
    expect(fake.selections).toBe(1);
    // The provider reads the object at least as new as the pass's first read saw it.
    expect(fake.reconciles).toEqual([{ provider: PROVIDER, ref: { ...fake.ref, seenVersion: '200' } }]);
    // Once, after the provider's call: the selection, the validation, no phase (the provider reports it)
    // and no observedGeneration (the provider writes it with what it observed).
    expect(fake.writes).toEqual([
      {
        provider: { name: PROVIDER, selectedReason: fake.selection.reason },
        validated: VALIDATED,
        providerSelected: { status: 'True', reason: 'AutoSelected', message: fake.selection.reason },
      },
    ]);
  });

  it('tracks no stack traces (worker/workflow-thread.ts): the stack trace query says they are off, the view query answers', async () => {
    const { handle, viewWhere } = await start(new FakeDeployment());
    await viewWhere('idle', (v) => v.step === 'idle');
    await expect(handle.query<string>('__stack_trace')).rejects.toThrow(/stack traces are not enabled/);
  });

  it('says ExplicitSelection for a provider named in the spec', async () => {
    const fake = new FakeDeployment({ explicitProvider: PROVIDER });
    fake.selection = { provider: PROVIDER, reason: EXPLICIT_SELECTION, message: undefined, rejected: [] };
    const { viewWhere } = await start(fake);
    await viewWhere('idle', (v) => v.step === 'idle');
    expect(fake.writes[0]?.providerSelected).toEqual({ status: 'True', reason: 'ExplicitSelection', message: EXPLICIT_SELECTION });
  });

  it('reads no older than the resourceVersion a signal reported, and writes nothing that has not changed', async () => {
    const { fake, handle, viewWhere } = await start(new FakeDeployment());
    await viewWhere('idle', (v) => v.step === 'idle');
    fake.edit({ resourceVersion: '500', generation: 2 });
    await handle.signal(reconcileSignal, { reason: 'spec changed', generation: 2, resourceVersion: '500' });
    const second = await viewWhere('a second pass', (v) => v.passes >= 2);
    expect(second.observedGeneration).toBe(2);
    expect(fake.assessed.at(-1)).toEqual({ ...fake.ref, seenVersion: '500' });
    // The provider was recorded by the first pass: no second selection, no second (identical) status write.
    expect(fake.selections).toBe(1);
    expect(fake.writes).toHaveLength(1);
  });

  it('writes the paused condition and keeps the core conditions while paused; resumes when unpaused', async () => {
    const { fake, handle, viewWhere } = await start(new FakeDeployment());
    await viewWhere('idle', (v) => v.step === 'idle');
    fake.edit({ paused: true, generation: 2 });
    await handle.signal(reconcileSignal, { reason: 'annotated' });
    const paused = await viewWhere('paused', (v) => v.step === 'paused');
    expect(paused).toMatchObject({ paused: true, waitingFor: 'the pause annotation to be removed', observedGeneration: 2 });
    expect(fake.writes.at(-1)).toEqual({
      provider: { name: PROVIDER, selectedReason: fake.selection.reason },
      observedGeneration: 2,
      validated: VALIDATED,
      providerSelected: { status: 'True', reason: 'AutoSelected', message: fake.selection.reason },
      paused: { status: 'True', reason: 'ReconcilePaused', message: 'Reconciliation is paused by annotation kubeairunway.ai/reconcile-paused' },
    });
    const reconciles = fake.reconciles.length;

    fake.edit({ paused: false });
    await handle.signal(reconcileSignal, { reason: 'unannotated' });
    const resumed = await viewWhere('resumed', (v) => v.step === 'idle' && v.passes >= 3);
    expect(resumed.paused).toBe(false);
    expect(fake.reconciles.length).toBe(reconciles + 1);
    // The paused condition goes: the status is the selected one again, without it.
    expect(fake.writes.at(-1)?.paused).toBeUndefined();
  });

  it('a paused deployment it never reconciled writes back the conditions the object has', async () => {
    const validated = { status: 'False' as const, reason: 'ValidationFailed', message: 'old message' };
    const { fake, viewWhere } = await start(new FakeDeployment({ paused: true, validated }));
    await viewWhere('paused', (v) => v.step === 'paused');
    expect(fake.writes).toEqual([expect.objectContaining({ observedGeneration: 1, validated, paused: expect.objectContaining({ reason: 'ReconcilePaused' }) })]);
    expect(fake.selections).toBe(0);
  });

  it('stays Pending on an invalid spec, with the message, until an edit', async () => {
    const fake = new FakeDeployment({ generation: 4 });
    fake.validation = { valid: false, message: 'spec.model.id is required', warnings: [] };
    const { handle, viewWhere } = await start(fake);
    const pending = await viewWhere('pending', (v) => v.phase === 'Pending');
    expect(pending).toMatchObject({ step: 'validate', waitingFor: 'a valid spec', message: 'spec.model.id is required', provider: undefined, lastError: undefined });
    expect(fake.writes).toEqual([
      {
        observedGeneration: 4,
        validated: { status: 'False', reason: 'ValidationFailed', message: 'spec.model.id is required' },
        phase: { phase: 'Pending', message: 'spec.model.id is required' },
      },
    ]);
    expect(fake.selections).toBe(0);
    expect(fake.reconciles).toEqual([]);
    // Not retried on a timer (the resync is a minute away).
    await sleep(2_500);
    expect(fake.assessed).toHaveLength(1);

    fake.validation = { valid: true, message: undefined, warnings: [] };
    fake.edit({ generation: 5 });
    await handle.signal(reconcileSignal, { reason: 'fixed' });
    const idle = await viewWhere('idle', (v) => v.step === 'idle');
    expect(idle).toMatchObject({ phase: 'Running', observedGeneration: 5 });
  });

  it("waits for a provider's CRD the assessment says is missing, without a failure", async () => {
    const fake = new FakeDeployment();
    const waitingFor = "the CRD of provider 'kaito' (workspaces.kaito.sh) to be installed";
    fake.validation = { valid: false, message: "Provider 'kaito' is not installed", warnings: [], waitingFor };
    const { viewWhere } = await start(fake);
    const pending = await viewWhere('pending', (v) => v.phase === 'Pending');
    expect(pending).toMatchObject({ step: 'validate', waitingFor, message: "Provider 'kaito' is not installed", lastError: undefined, failures: 0 });
    expect(fake.writes[0]?.phase).toEqual({ phase: 'Pending', message: "Provider 'kaito' is not installed" });
  });

  it('stays Pending when no provider is selected, saying why', async () => {
    const fake = new FakeDeployment();
    fake.selection = { provider: undefined, reason: 'NoProviderMatched', message: 'No provider supports engine sglang', rejected: [{ name: 'kaito', reason: 'engine' }] };
    const { viewWhere } = await start(fake);
    const pending = await viewWhere('pending', (v) => v.phase === 'Pending');
    expect(pending).toMatchObject({ step: 'select-provider', waitingFor: 'a provider', message: 'No provider supports engine sglang', provider: undefined });
    expect(fake.writes).toEqual([
      {
        observedGeneration: 1,
        validated: VALIDATED,
        providerSelected: { status: 'False', reason: 'NoProviderMatched', message: 'No provider supports engine sglang' },
        phase: { phase: 'Pending', message: 'No provider supports engine sglang' },
      },
    ]);
    expect(fake.reconciles).toEqual([]);
  });

  // Each apply result of the provider's call and what the pass then waits for; `polls` when it looks
  // again after the poll interval (1s) rather than at the resync (1m).
  const results: { result: ApplyResult | undefined; step: string; waitingFor: string | undefined; polls: boolean }[] = [
    { result: 'created', step: 'idle', waitingFor: undefined, polls: false },
    { result: 'updated', step: 'idle', waitingFor: undefined, polls: false },
    { result: 'unchanged', step: 'idle', waitingFor: undefined, polls: false },
    { result: 'drift-restored', step: 'idle', waitingFor: undefined, polls: false },
    { result: 'crd-missing', step: 'apply', waitingFor: `the CRD of provider '${PROVIDER}' to be installed`, polls: false },
    { result: 'recreating', step: 'apply', waitingFor: 'the old provider resource to be deleted', polls: true },
    { result: 'waiting-for-deletion', step: 'apply', waitingFor: 'the old provider resource to be deleted', polls: true },
    { result: undefined, step: 'compatibility', waitingFor: 'a spec this provider supports', polls: false },
    // Refused by the provider's CRD: a settled answer (no failure, no backoff), until something changes.
    { result: 'refused', step: 'apply', waitingFor: "a spec whose StubModel the provider's CRD accepts", polls: false },
  ];
  // Concurrent (each on its own queues): most of each is waiting to see that nothing more happens.
  it.concurrent.for(results)('apply result $result: step $step, waiting for $waitingFor', async ({ result, step, waitingFor, polls }, { expect }) => {
    const fake = new FakeDeployment();
    fake.reconcile = () => reconcileOutcome(result, result === 'created' ? 'Running' : 'Deploying', `after ${result}`);
    const { viewWhere } = await start(fake);
    const v = await viewWhere(`step ${step}`, (x) => x.passes >= 1);
    expect(v).toMatchObject({ step, waitingFor, phase: result === 'created' ? 'Running' : 'Deploying', message: `after ${result}`, provider: PROVIDER, lastError: undefined });
    // The core's status is the same whatever the provider did: the selection, no phase of its own.
    expect(fake.writes).toHaveLength(1);
    expect(fake.writes[0]?.phase).toBeUndefined();
    if (polls) {
      await eventually('a poll', async () => fake.reconciles.length >= 3 || undefined, 10_000);
    } else {
      await sleep(2_500);
      expect(fake.reconciles).toHaveLength(1);
    }
  });

  it("after a settled pass, a change of the provider's resource runs only the provider's call; any other change the whole pass", async () => {
    const { fake, handle, viewWhere } = await start(new FakeDeployment());
    await viewWhere('idle', (v) => v.step === 'idle');
    expect(fake.assessed).toHaveLength(1);

    fake.reconcile = () => reconcileOutcome('unchanged', 'Deploying', 'a replica restarted');
    await handle.signal(reconcileSignal, { reason: 'resource status', fromResource: true });
    const short = await viewWhere('the short pass', (v) => v.passes >= 2);
    expect(short).toMatchObject({ step: 'idle', phase: 'Deploying', message: 'a replica restarted' });
    expect(fake.assessed).toHaveLength(1);
    expect(fake.reconciles).toHaveLength(2);
    // The short pass reads through the reference a signal would have narrowed: nothing seen yet, so the plain one.
    expect(fake.reconciles[1]?.ref).toEqual(fake.ref);

    // Still settled: the next resource change is short too.
    await handle.signal(reconcileSignal, { reason: 'resource status', fromResource: true });
    await viewWhere('another short pass', (v) => v.passes >= 3);
    expect(fake.assessed).toHaveLength(1);

    // A change of the object itself brings the whole pass back.
    await handle.signal(reconcileSignal, { reason: 'labels changed' });
    await viewWhere('a whole pass', (v) => v.passes >= 4);
    expect(fake.assessed).toHaveLength(2);
    expect(fake.reconciles).toHaveLength(4);
  });

  it('a resource change after a pass that did not settle runs the whole pass', async () => {
    const fake = new FakeDeployment();
    fake.reconcile = () => reconcileOutcome('crd-missing', 'Pending', 'CRD missing');
    const { handle, viewWhere } = await start(fake);
    await viewWhere('waiting for the CRD', (v) => v.passes >= 1);
    await handle.signal(reconcileSignal, { reason: 'resource', fromResource: true });
    await viewWhere('a second pass', (v) => v.passes >= 2);
    expect(fake.assessed).toHaveLength(2);
  });

  it('a short pass that finds the deployment Terminating goes on with the whole pass, which runs the deletion', async () => {
    const { fake, handle, result, viewWhere } = await start(new FakeDeployment());
    await viewWhere('idle', (v) => v.step === 'idle');
    // Deleted: the provider no longer observes, and says so; the whole pass reads the deletion.
    fake.delete();
    fake.reconcile = () => reconcileOutcome('unchanged', 'Terminating', 'being deleted');
    await handle.signal(reconcileSignal, { reason: 'resource', fromResource: true });
    const final = await result();
    expect(final).toMatchObject({ deleting: true, phase: 'Terminating', step: 'cleanup', waitingFor: 'finalizer removal' });
    expect(fake.assessed).toHaveLength(2);
    expect(fake.reconciles).toHaveLength(2);
    expect(fake.cleanups).toHaveLength(1);
    expect(fake.finalizersRemoved).toBe(1);
  });

  it("runs an in-process provider's call as a local activity, the short pass too, and no task queue is needed", async () => {
    const fake = new FakeDeployment();
    fake.inProcessProviders = [PROVIDER];
    // No worker on the provider's task queue: only the local activity can answer.
    const { handle, viewWhere } = await start(fake, { providers: [], inProcess: [PROVIDER] });
    await viewWhere('idle', (v) => v.step === 'idle' && v.phase === 'Running');
    expect(fake.localReconciles).toEqual([PROVIDER]);

    fake.reconcile = () => reconcileOutcome('unchanged', 'Deploying', 'a replica restarted');
    await handle.signal(reconcileSignal, { reason: 'resource status', fromResource: true });
    await viewWhere('the short pass', (v) => v.passes >= 2 && v.phase === 'Deploying');
    expect(fake.localReconciles).toEqual([PROVIDER, PROVIDER]);
    expect(fake.reconciles).toHaveLength(2);
  });

  it('a worker that does not serve the in-process provider after all sends the call to its task queue', async () => {
    const fake = new FakeDeployment();
    // The assessment claims it (as another replica's would), but this core worker does not serve it.
    fake.inProcessProviders = [PROVIDER];
    const { viewWhere } = await start(fake, { providers: [PROVIDER], inProcess: [] });
    const idle = await viewWhere('idle', (v) => v.step === 'idle');
    expect(idle).toMatchObject({ phase: 'Running', failures: 0, lastError: undefined });
    expect(fake.localReconciles).toEqual([]);
    expect(fake.reconciles).toHaveLength(1);
  });
});
