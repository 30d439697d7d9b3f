// The FlameCluster workflow in Temporal's test environment (on the local stack's Temporal server) with
// stub activities: every branch of its pass and of the shared loop, without a Kubernetes object.
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { FlameActivities, FlameApplyOutcome } from '../../contract/flame-activities.ts';
import type { FlameClusterStatus } from '../../api/flame/types.ts';
import { reconcileSignal, retryUpdate } from '../../workflows/engine/definitions.ts';
import { flameClusterWorkflow } from '../../workflows/flame/flame-cluster.ts';
import { eventually, uniqueName } from '../support/env.ts';
import { TEST_SETTINGS } from '../support/controller.ts';
import { CODE_LEVEL } from '../../workflows/engine/code-level.ts';
import { stubWorkers } from './stub-workers.ts';
import { skippedResult, viewReader } from './workflow-views.ts';

/** What the stub activities answer next, and what they were asked. */
class Script {
  apply: () => FlameApplyOutcome = () => ({ found: true, generation: 1, resourceVersion: '10', configGeneration: 1, changes: [] });
  state: FlameClusterStatus['state'] = 'Running';
  applies = 0;
  reports: { invalid?: string; configGeneration?: number }[] = [];

  activities(): FlameActivities {
    return {
      applyFlameCluster: async () => {
        this.applies++;
        return this.apply();
      },
      reportFlameStatus: async (_ref, input) => {
        this.reports.push(input);
        const status: FlameClusterStatus = {
          sessionManager: { ready: 1, endpoint: 'http://x-session-manager:8080' },
          executorManager: { replicas: 1, ready: 1 },
          state: input.invalid ? 'Failed' : this.state,
          configGeneration: input.configGeneration ?? 0,
          observedGeneration: 1,
          message: input.invalid ?? 'All components healthy',
        };
        return status;
      },
    };
  }
}

describe('flameClusterWorkflow with stub activities', () => {
  const stub = stubWorkers();
  const scripts = new Map<string, Script>();

  /** Starts the workflow on a task queue of its own, served by a worker with this test's stubs. */
  async function start(settings: Record<string, unknown> = {}) {
    const script = new Script();
    const taskQueue = uniqueName('flame-wf');
    scripts.set(taskQueue, script);
    await stub.start(taskQueue, script.activities());
    const ref = { namespace: 'default', name: uniqueName('fc'), uid: uniqueName('uid') };
    const handle = await stub.client.workflow.start(flameClusterWorkflow, {
      taskQueue,
      workflowId: `flamecluster/${ref.namespace}/${ref.name}/${ref.uid}`,
      args: [{ ref, settings: { ...TEST_SETTINGS, ...settings }, codeLevel: CODE_LEVEL }],
    });
    const { view, viewWhere } = viewReader(stub.env, handle);
    return { script, handle, view, viewWhere };
  }

  it('applies, reports, settles idle, and passes again on a signal; ends when the object is gone', async () => {
    const { script, handle, viewWhere } = await start();
    const idle = await viewWhere('idle after the first pass', (v) => v.step === 'idle');
    expect(idle).toMatchObject({ phase: 'Running', message: 'All components healthy', configGeneration: 1, observedGeneration: 1 });
    expect(idle.lastError).toBeUndefined();
    expect(script.reports[0]).toEqual({ invalid: undefined, configGeneration: 1 });

    await handle.signal(reconcileSignal, { reason: 'pods changed', fromResource: true });
    await viewWhere('a second pass', (v) => v.passes >= 2);

    script.apply = () => ({ found: false, changes: [] });
    await handle.signal(reconcileSignal, { reason: 'deleted' });
    const final = await skippedResult(stub.env, handle);
    expect(final.passes).toBeGreaterThanOrEqual(3);
  });

  it('ends at once when the cluster is being deleted (the garbage collector removes the children)', async () => {
    const { script, handle } = await start();
    script.apply = () => ({ found: true, deleting: true, changes: [] });
    await handle.signal(reconcileSignal, { reason: 'deleting' });
    await skippedResult(stub.env, handle);
    expect(script.reports.length).toBeLessThanOrEqual(1);
  });

  it('reports an invalid spec as Failed and waits for an edit, not a retry', async () => {
    const { script, viewWhere } = await start();
    script.apply = () => ({ found: true, generation: 2, invalid: 'spec.sessionManager.image: required', changes: [] });
    // The first pass may have started before the script changed: wait for the invalid one.
    const v = await viewWhere('waiting for a valid spec', (x) => x.waitingFor === 'a valid spec');
    expect(v).toMatchObject({ phase: 'Failed', message: 'spec.sessionManager.image: required', step: 'apply', failures: 0 });
    expect(v.lastError).toBeUndefined();
    const applies = script.applies;
    // Longer than the retry delay (1s) and the poll interval (1s): an invalid spec is not retried on a timer.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(script.applies).toBe(applies);
  });

  it('pauses without writing status while the annotation is set', async () => {
    const { script, handle, viewWhere } = await start();
    await viewWhere('idle', (v) => v.step === 'idle');
    const reports = script.reports.length;
    script.apply = () => ({ found: true, paused: true, generation: 1, changes: [] });
    await handle.signal(reconcileSignal, { reason: 'paused' });
    const v = await viewWhere('paused', (x) => x.step === 'paused');
    expect(v.waitingFor).toBe('the pause annotation to be removed');
    expect(script.reports.length).toBe(reports);
  });

  it('polls while an old pod terminates', async () => {
    const { script, viewWhere } = await start();
    script.apply = () => ({ found: true, generation: 1, configGeneration: 2, changes: ['deleting stale pod x-session-manager'], waitingFor: 'pod x-session-manager to terminate' });
    await viewWhere('waiting for the pod', (v) => v.waitingFor === 'pod x-session-manager to terminate');
    const applies = script.applies;
    await eventually('a poll after the poll interval', async () => script.applies > applies || undefined, 10_000);
  });

  it('backs off after a failed step, and a retry update re-runs it at once and says how it went', async () => {
    const { script, handle, viewWhere } = await start({ retryDelay: '1m', maxRetryDelay: '5m' });
    await viewWhere('idle', (v) => v.step === 'idle');
    script.apply = () => {
      throw ApplicationFailure.create({ type: 'KubeForbidden', message: 'pods is forbidden', nonRetryable: true });
    };
    await handle.signal(reconcileSignal, { reason: 'changed' });
    const failed = await viewWhere('the failure recorded', (v) => v.lastError !== undefined);
    expect(failed.lastError).toMatchObject({ step: 'apply', type: 'KubeForbidden', message: 'pods is forbidden' });
    expect(failed.failures).toBe(1);

    script.apply = () => ({ found: true, generation: 1, resourceVersion: '11', configGeneration: 1, changes: [] });
    const result = await handle.executeUpdate(retryUpdate);
    expect(result).toMatchObject({ retried: 'apply', outcome: 'succeeded', previousError: { type: 'KubeForbidden' } });
    await viewWhere('recovered', (v) => v.lastError === undefined && v.failures === 0 && v.step === 'idle');
  });

  it('continues as new when the history grows, carrying its view', async () => {
    const { handle, viewWhere } = await start({ maxHistoryEvents: 30 });
    await viewWhere('idle', (v) => v.step === 'idle');
    const firstRun = (await handle.describe()).runId;
    // One pass per signal (each some ten events) until the history passes its bound.
    for (let i = 0; (await handle.describe()).runId === firstRun; i++) {
      expect(i, 'still the first run after 20 passes').toBeLessThan(20);
      const passes = (await viewWhere('settled', (v) => v.step === 'idle')).passes;
      await handle.signal(reconcileSignal, { reason: `change ${i}` });
      await viewWhere('one more pass', (v) => v.passes > passes || v.passes === 0);
    }
    const carried = await viewWhere('the new run has passed', (v) => v.step === 'idle' && v.passes >= 2);
    expect(carried.configGeneration).toBe(1);
  });
});
