// The AsyncActor workflow's deletion with stub activities: the bounded wait every kind's cleanup shares
// (workflows/engine/deletion-deadline.ts) as AsyncActor uses it: a release that leaves something
// behind is reported once (Terminating) and tried again on a signal or at the poll interval, and at
// the deadline the finalizer goes anyway with a FinalizerTimeout event naming what may be left.
import { describe, expect, it } from 'vitest';
import type { ActorAssessment, AsyaActivities, ReleaseOutcome } from '../../contract/asya-activities.ts';
import { asyncActorWorkflow } from '../../workflows/asya/async-actor.ts';
import { CODE_LEVEL } from '../../workflows/engine/code-level.ts';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { TEST_SETTINGS } from '../support/controller.ts';
import { uniqueName } from '../support/env.ts';
import { stubWorkers } from './stub-workers.ts';
import { skippedResult, viewReader } from './workflow-views.ts';

const QUEUE = 'queue asya-echo';

/** A standalone actor as its stub activities see it, and what the workflow did to it. */
class FakeActor {
  assessment: ActorAssessment = { found: true, generation: 1, resourceVersion: '1', mode: 'Standalone', hasFinalizer: true };
  release: () => ReleaseOutcome = () => ({ remaining: [QUEUE], changes: [] });
  log: string[] = [];
  releases = 0;
  events: { type: string; reason: string; message: string }[] = [];

  activities(): AsyaActivities {
    return {
      assessAsyncActor: async () => this.assessment,
      ensureActorQueues: async () => ({ ready: true, reason: 'QueuesReady', message: 'ready' }),
      applyStandalone: async () => ({ workload: 'Deployment/default/echo', replicas: 1, readyReplicas: 1, scaling: { type: 'ScalingReady', status: 'True', reason: 'Ready', message: 'ok' }, changes: [] }),
      resolveActorTarget: async () => {
        throw new Error('a standalone actor resolves no target');
      },
      injectRuntime: async () => {
        throw new Error('a standalone actor injects nothing');
      },
      writeActorStatus: async (_ref, status) => {
        if (status.status === 'Terminating') this.log.push(`status Terminating: ${status.conditions.length} conditions`);
      },
      releaseActor: async () => {
        this.releases++;
        this.log.push('release');
        return this.release();
      },
      removeActorFinalizer: async () => {
        this.log.push('finalizer removed');
      },
      recordActorEvent: async (_ref, event) => {
        this.events.push(event);
        this.log.push(`event ${event.reason}`);
      },
    };
  }
}

describe('asyncActorWorkflow deletion with stub activities', () => {
  const stub = stubWorkers();

  async function start(fake: FakeActor, settings: Record<string, unknown>) {
    const taskQueue = uniqueName('asya-wf');
    await stub.start(taskQueue, fake.activities());
    const ref = { namespace: 'default', name: uniqueName('echo'), uid: uniqueName('uid') };
    const handle = await stub.client.workflow.start(asyncActorWorkflow, {
      taskQueue,
      workflowId: `asyncactor/${ref.namespace}/${ref.name}/${ref.uid}`,
      args: [{ ref, settings: { ...TEST_SETTINGS, ...settings }, codeLevel: CODE_LEVEL }],
    });
    const { viewWhere } = viewReader(stub.env, handle);
    /** The object's deletion as the watcher reports it: a signal, and the assessment says so from now on. */
    const deleteObject = async (at = stub.clock.now()) => {
      fake.assessment = { ...fake.assessment, deleting: true, deletionTimestamp: at.toISOString() };
      await handle.signal(reconcileSignal, { reason: 'deleted' });
    };
    return { handle, viewWhere, deleteObject };
  }

  it('reports the wait once, tries again when a signal says something changed, then removes the finalizer', async () => {
    const fake = new FakeActor();
    // Neither the poll interval nor the deadline comes within the test: only the signal wakes the wait.
    const { handle, viewWhere, deleteObject } = await start(fake, { cleanupTimeout: '5m', pollInterval: '5m' });
    await viewWhere('idle', (v) => v.step === 'idle');
    await deleteObject();
    await viewWhere('waiting for the release', (v) => v.step === 'cleanup' && fake.releases === 1 && fake.log.includes('status Terminating: 0 conditions'));
    fake.release = () => ({ remaining: [], changes: ['queue deleted'] });
    await handle.signal(reconcileSignal, { reason: 'queue deleted', fromResource: true });
    const final = await skippedResult(stub.env, handle);
    expect(final.phase).toBe('Terminating');
    expect(fake.log).toEqual(['release', 'status Terminating: 0 conditions', 'release', 'finalizer removed']);
    expect(fake.events).toEqual([]);
  });

  it('at the deadline removes the finalizer with a FinalizerTimeout event naming what may be left behind', async () => {
    const fake = new FakeActor();
    const { handle, viewWhere, deleteObject } = await start(fake, { cleanupTimeout: '3s', pollInterval: '1s' });
    await viewWhere('idle', (v) => v.step === 'idle');
    const deletedAt = stub.clock.now();
    await deleteObject(deletedAt);
    await skippedResult(stub.env, handle);
    // In the workflows' time: when the run ended, just after it removed the finalizer.
    await stub.clock.refresh();
    const waited = stub.clock.nowMs() - deletedAt.getTime();
    expect(waited).toBeGreaterThanOrEqual(2_900);
    expect(waited).toBeLessThan(15_000);
    // Tried at once, then about once a poll interval until the deadline: a handful, not a busy loop.
    expect(fake.releases).toBeGreaterThanOrEqual(2);
    expect(fake.releases).toBeLessThanOrEqual(6);
    expect(fake.events).toEqual([{ type: 'Warning', reason: 'FinalizerTimeout', message: `Cleanup timed out; these may be left behind: ${QUEUE}` }]);
    // Reported once, not at every attempt; the event comes right after the last attempt, then the finalizer.
    expect(fake.log.filter((l) => l.startsWith('status Terminating'))).toHaveLength(1);
    expect(fake.log.slice(-3)).toEqual(['release', 'event FinalizerTimeout', 'finalizer removed']);
  });
});
