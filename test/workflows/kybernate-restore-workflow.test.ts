// The KybernateRestore workflow in Temporal's test environment (on the local stack's Temporal server)
// with stub activities: a fake restore the stubs read and write, its source (a checkpoint image, or a
// checkpoint that completes, fails or never does) and its pod (created, running, failing, or never
// ready). Every branch: gone, deleting, paused, invalid, Failed staying, the source failed or waited
// for (and its timeout), the pod running (restoreTime written once), failing, or past the deadline
// (the wait is bounded by it, not by the resync), and a restored pod that stops being ready.
import { describe, expect, it } from 'vitest';
import type { RestoreActivities, RestoreAssessment, RestorePodState, RestoreSourceResolution, RestoreStatusInput } from '../../contract/kybernate-restore-activities.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { kybernateRestoreWorkflow } from '../../workflows/kybernate/restore.ts';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import { TEST_SETTINGS } from '../support/controller.ts';
import { eventually, uniqueName } from '../support/env.ts';
import { CODE_LEVEL } from '../../workflows/engine/code-level.ts';
import { stubWorkers } from './stub-workers.ts';
import { skippedResult, viewReader } from './workflow-views.ts';

const IMAGE = 'containerd.io/checkpoint/b7c1e2d3f4a5:20250101T120000.000Z';
const CHECKPOINT = 'my-checkpoint';
const READY: RestoreSourceResolution = { ready: true, checkpointImage: IMAGE, nodeName: 'node-1', podName: 'gpu-inference', containerName: 'model' };
const WAITING: RestoreSourceResolution = { ready: false, failed: false, reason: 'CheckpointNotCompleted', message: `KybernateCheckpoint ${CHECKPOINT} is InProgress, not Completed` };

/** One KybernateRestore as the stubs see it, what they answer next, and what they were asked. */
class FakeRestore {
  readonly ref: ObjectRef = { namespace: 'default', name: uniqueName('krs'), uid: uniqueName('uid') };
  readonly podName = `${this.ref.name}-restored`;
  exists = true;
  deleting = false;
  paused = false;
  invalid: string | undefined;
  /** The object's creationTimestamp, in the workflows' time: set by start() unless a test set it. */
  createdAt: string | undefined;
  timeoutSeconds = 600;
  status: Partial<RestoreStatusInput> = {};
  source: () => RestoreSourceResolution = () => READY;
  pod: () => RestorePodState = () => ({ podName: this.podName, podUID: 'pod-uid-1', phase: 'Running', ready: true });

  resolutions = 0;
  readonly applied: RestoreSourceResolution[] = [];
  readonly statuses: RestoreStatusInput[] = [];
  readonly log: string[] = [];

  activities(): RestoreActivities {
    return {
      assessRestore: async () => {
        if (!this.exists) return { found: false };
        const seen: RestoreAssessment = {
          found: true,
          generation: 1,
          resourceVersion: '1',
          createdAt: this.createdAt,
          ...(this.status.phase ? { phase: this.status.phase } : {}),
          ...(this.status.restoreTime ? { restoreTime: this.status.restoreTime } : {}),
        };
        if (this.deleting) return { ...seen, deleting: true };
        if (this.paused) return { ...seen, paused: true };
        if (this.invalid) return { ...seen, invalid: this.invalid };
        return { ...seen, timeoutSeconds: this.timeoutSeconds, checkpointRef: CHECKPOINT };
      },
      resolveRestoreSource: async () => {
        this.resolutions++;
        this.log.push('resolve');
        return this.source();
      },
      applyRestorePod: async (_ref, source) => {
        this.log.push('apply');
        this.applied.push(source);
        return this.pod();
      },
      writeRestoreStatus: async (_ref, input) => {
        this.log.push(`status ${input.phase}`);
        this.statuses.push(input);
        this.status = input;
      },
    };
  }
}

describe('kybernateRestoreWorkflow with stub activities', () => {
  const stub = stubWorkers();

  async function start(fake: FakeRestore, settings: Partial<ReconcileSettings> = {}) {
    const taskQueue = `${uniqueName('kyb')}-core`;
    fake.createdAt ??= stub.clock.now().toISOString();
    await stub.start(taskQueue, fake.activities());
    const handle = await stub.client.workflow.start(kybernateRestoreWorkflow, {
      taskQueue,
      workflowId: `kybernaterestore/${fake.ref.namespace}/${fake.ref.name}/${fake.ref.uid}`,
      args: [{ ref: fake.ref, settings: { ...TEST_SETTINGS, ...settings }, codeLevel: CODE_LEVEL }],
    });
    const { viewWhere, skipUntil } = viewReader(stub.env, handle);
    const poke = () => handle.signal(reconcileSignal, { reason: 'changed' });
    return { handle, viewWhere, skipUntil, poke };
  }

  it('ends at once when the object is gone', async () => {
    const fake = new FakeRestore();
    fake.exists = false;
    const { handle } = await start(fake);
    expect((await skippedResult(stub.env, handle)).passes).toBe(1);
    expect(fake.log).toEqual([]);
  });

  it('ends at once when the object is being deleted: the garbage collector removes its pod', async () => {
    const fake = new FakeRestore();
    fake.deleting = true;
    const { handle } = await start(fake);
    expect((await skippedResult(stub.env, handle)).passes).toBe(1);
    expect(fake.log).toEqual([]);
  });

  it('pauses without a status write while the annotation is set', async () => {
    const fake = new FakeRestore();
    fake.paused = true;
    const { viewWhere } = await start(fake);
    const v = await viewWhere('paused', (x) => x.step === 'paused');
    expect(v.waitingFor).toBe('the pause annotation to be removed');
    expect(fake.log).toEqual([]);
  });

  it('reports an invalid spec as Failed and creates nothing', async () => {
    const fake = new FakeRestore();
    fake.invalid = 'spec: exactly one of checkpointRef and checkpointImage must be set';
    const { viewWhere } = await start(fake);
    const v = await viewWhere('waiting for a valid spec', (x) => x.waitingFor === 'a valid spec');
    expect(v.phase).toBe('Failed');
    expect(fake.statuses).toEqual([{ phase: 'Failed', message: fake.invalid, ready: { status: 'False', reason: 'InvalidSpec', message: fake.invalid } }]);
    expect(fake.log).toEqual(['status Failed']);
  });

  it('leaves a Failed restore failed, pass after pass, without reading its source', async () => {
    const fake = new FakeRestore();
    fake.status = { phase: 'Failed', message: 'from an earlier run' };
    const { viewWhere, poke } = await start(fake);
    await viewWhere('idle', (v) => v.step === 'idle' && v.passes >= 1);
    await poke();
    const v = await viewWhere('a second pass', (x) => x.passes >= 2 && x.step === 'idle');
    expect(v.phase).toBe('Failed');
    expect(fake.log).toEqual([]);
  });

  it('fails with CheckpointFailed when its checkpoint failed, and creates no pod', async () => {
    const fake = new FakeRestore();
    const message = `KybernateCheckpoint ${CHECKPOINT} failed: criu failed`;
    fake.source = () => ({ ready: false, failed: true, reason: 'CheckpointFailed', message });
    const { viewWhere } = await start(fake);
    const v = await viewWhere('Failed', (x) => x.phase === 'Failed' && x.step === 'idle');
    expect(v.message).toBe(message);
    expect(fake.statuses).toEqual([{ phase: 'Failed', message, ready: { status: 'False', reason: 'CheckpointFailed', message } }]);
    expect(fake.applied).toEqual([]);
  });

  it('waits Pending for its checkpoint, polling, then restores once it completed', async () => {
    const fake = new FakeRestore();
    fake.source = () => WAITING;
    const { viewWhere } = await start(fake);
    const pending = await viewWhere('Pending', (x) => x.phase === 'Pending' && x.step === 'resolve-source');
    expect(pending.waitingFor).toBe(`checkpoint ${CHECKPOINT} to complete`);
    expect(fake.status).toEqual({ phase: 'Pending', message: WAITING.message, ready: { status: 'False', reason: 'CheckpointNotCompleted', message: WAITING.message } });
    // No signal: the poll interval (1s) looks again.
    await eventually('a second look', async () => fake.resolutions >= 2);
    expect(fake.applied).toEqual([]);
    fake.source = () => READY;
    const v = await viewWhere('Running', (x) => x.phase === 'Running' && x.step === 'idle');
    expect(v.restoredPodName).toBe(fake.podName);
    expect(fake.applied).toEqual([READY]);
  });

  it('fails when its checkpoint has not completed within spec.timeout of its creation', async () => {
    const fake = new FakeRestore();
    fake.timeoutSeconds = 60;
    fake.createdAt = new Date(stub.clock.nowMs() - 61_000).toISOString();
    fake.source = () => WAITING;
    const { viewWhere } = await start(fake);
    const v = await viewWhere('Failed', (x) => x.phase === 'Failed' && x.step === 'idle');
    const message = `Timed out after 60s waiting for checkpoint ${CHECKPOINT} to complete`;
    expect(v.message).toBe(message);
    expect(fake.statuses).toEqual([{ phase: 'Failed', message, ready: { status: 'False', reason: 'Timeout', message } }]);
  });

  it('creates the pod and reports Running with its name, uid and a restore time written once', async () => {
    const fake = new FakeRestore();
    const before = stub.clock.nowMs();
    const { viewWhere, poke } = await start(fake);
    const v = await viewWhere('Running', (x) => x.phase === 'Running' && x.step === 'idle');
    expect(v).toMatchObject({ restoredPodName: fake.podName, restoredPodUID: 'pod-uid-1' });
    expect(fake.log).toEqual(['resolve', 'apply', 'status Running']);
    const running = fake.statuses[0]!;
    expect(running).toEqual({
      phase: 'Running',
      message: `Pod ${fake.podName} restored from ${IMAGE}`,
      restoredPodName: fake.podName,
      restoredPodUID: 'pod-uid-1',
      restoreTime: expect.any(String),
      ready: { status: 'True', reason: 'Running', message: 'Restored pod is running' },
    });
    expect(Date.parse(running.restoreTime!)).toBeGreaterThanOrEqual(before - 1_000);
    // Later passes keep the time.
    await new Promise((r) => setTimeout(r, 50));
    await poke();
    await viewWhere('a second pass', (x) => x.passes >= 2 && x.step === 'idle');
    expect(fake.statuses.map((s) => s.restoreTime)).toEqual(fake.statuses.map(() => running.restoreTime));
  });

  it('keeps the restore time its status already holds (a new run after a restart)', async () => {
    const fake = new FakeRestore();
    const earlier = '2025-01-01T12:00:00.000Z';
    fake.status = { phase: 'Running', message: 'restored', restoreTime: earlier };
    const { viewWhere } = await start(fake);
    await viewWhere('Running', (x) => x.phase === 'Running' && x.step === 'idle' && x.passes >= 1);
    expect(fake.status.restoreTime).toBe(earlier);
  });

  it('reports Restoring while the pod starts, Running once a pod change wakes it', async () => {
    const fake = new FakeRestore();
    fake.pod = () => ({ podName: fake.podName, podUID: 'pod-uid-1', phase: 'Pending', ready: false });
    const { viewWhere, poke } = await start(fake);
    const restoring = await viewWhere('Restoring', (x) => x.phase === 'Restoring' && x.step === 'pod');
    expect(restoring.waitingFor).toBe(`pod ${fake.podName} to run`);
    expect(fake.status).toEqual({
      phase: 'Restoring',
      message: `Restoring pod ${fake.podName} from ${IMAGE}`,
      restoredPodName: fake.podName,
      restoredPodUID: 'pod-uid-1',
      ready: { status: 'False', reason: 'Restoring', message: `Restoring pod ${fake.podName} from ${IMAGE}` },
    });
    fake.pod = () => ({ podName: fake.podName, podUID: 'pod-uid-1', phase: 'Running', ready: true });
    await poke();
    await viewWhere('Running', (x) => x.phase === 'Running' && x.step === 'idle');
    expect(fake.log.filter((l) => l.startsWith('status'))).toEqual(['status Restoring', 'status Running']);
  });

  it('fails with the pod\'s reason when the pod fails', async () => {
    const fake = new FakeRestore();
    fake.pod = () => ({ podName: fake.podName, podUID: 'pod-uid-1', phase: 'Failed', ready: false, reason: 'RestoreFailed', message: 'criu restore failed' });
    const { viewWhere } = await start(fake);
    const v = await viewWhere('Failed', (x) => x.phase === 'Failed' && x.step === 'idle');
    expect(v.message).toBe('criu restore failed');
    expect(fake.status).toMatchObject({ phase: 'Failed', restoredPodName: fake.podName, ready: { status: 'False', reason: 'RestoreFailed', message: 'criu restore failed' } });
  });

  it('fails with PodExists, naming no pod of its own, when a pod of its name is someone else\'s', async () => {
    const fake = new FakeRestore();
    const message = `Pod default/${fake.podName} exists and is not this restore's`;
    fake.pod = () => ({ podName: fake.podName, podUID: 'theirs', phase: 'Running', ready: false, reason: 'PodExists', message });
    const { viewWhere } = await start(fake);
    const v = await viewWhere('Failed', (x) => x.phase === 'Failed' && x.step === 'idle');
    expect(v.restoredPodName).toBeUndefined();
    expect(fake.statuses).toEqual([{ phase: 'Failed', message, ready: { status: 'False', reason: 'PodExists', message } }]);
  });

  it('fails at the deadline when the pod never runs: the wait is bounded by it, not by the resync', async () => {
    const fake = new FakeRestore();
    fake.timeoutSeconds = 4;
    fake.pod = () => ({ podName: fake.podName, podUID: 'pod-uid-1', phase: 'Pending', ready: false });
    const started = stub.clock.nowMs();
    const { viewWhere, skipUntil } = await start(fake, { resyncPeriod: '10m' });
    await viewWhere('Restoring', (x) => x.phase === 'Restoring');
    const v = await skipUntil('Failed', (x) => x.phase === 'Failed' && x.step === 'idle', 20_000);
    await stub.clock.refresh();
    // The deadline's 4 s of the workflows' time, not the resync's 10 minutes.
    expect(stub.clock.nowMs() - started).toBeLessThan(15_000);
    const message = `Timed out after 4s waiting for pod ${fake.podName} to run`;
    expect(v.message).toBe(message);
    expect(fake.status).toMatchObject({ phase: 'Failed', message, ready: { status: 'False', reason: 'Timeout', message } });
  });

  it('stays Running (Ready False, no timeout) when a restored pod stops being ready past the deadline', async () => {
    const fake = new FakeRestore();
    fake.timeoutSeconds = 1;
    fake.createdAt = new Date(stub.clock.nowMs() - 5_000).toISOString();
    fake.status = { phase: 'Running', message: 'restored', restoreTime: '2025-01-01T12:00:00.000Z' };
    fake.pod = () => ({ podName: fake.podName, podUID: 'pod-uid-1', phase: 'Running', ready: false });
    const { viewWhere } = await start(fake);
    const v = await viewWhere('waiting for the pod', (x) => x.step === 'pod' && x.passes >= 1);
    expect(v.phase).toBe('Running');
    expect(fake.status).toMatchObject({ phase: 'Running', restoreTime: '2025-01-01T12:00:00.000Z', ready: { status: 'False', reason: 'PodNotReady' } });
  });
});
