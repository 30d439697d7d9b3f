// The KybernateWorkload workflow in Temporal's test environment (on the local stack's Temporal server:
// no time-skipping server can be downloaded here, so the idle timeouts are short real durations) with
// stub activities: a fake workload, its pod and its suspend checkpoints, which the stubs create, read
// and delete. The suspend with a completed checkpoint (suspendedCheckpoints + 1, the wake's pod restores
// from it), the cold fallback when the checkpoint fails (SuspendDegraded), a wake during the suspend,
// requests that keep resetting the idle timer, a plain scale-to-zero, and a suspend step run again
// after a failure that never creates a second checkpoint. A pod the API server refuses (an unknown
// RuntimeClass) is reported Failed with the refusal, and the workload recovers once its spec is fixed.
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { IdleMode, SuspendCheckpointState, WorkloadActivities, WorkloadPodState, WorkloadStatusInput } from '../../contract/kybernate-workload-activities.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import { toActivityFailure } from '../../kube/errors.ts';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { kybernateWorkloadWorkflow, type WorkloadView } from '../../workflows/kybernate/workload.ts';
import { activitySignal, wakeSignal } from '../../workflows/kybernate/workload-signals.ts';
import { TEST_SETTINGS } from '../support/controller.ts';
import { uniqueName } from '../support/env.ts';
import { CODE_LEVEL } from '../../workflows/engine/code-level.ts';
import { stubWorkers } from './stub-workers.ts';
import { viewReader } from './workflow-views.ts';

interface FakeCheckpoint {
  phase: 'Pending' | 'InProgress' | 'Completed' | 'Failed';
  checkpointRef?: string;
  nodeName?: string;
  message?: string;
}

/** One KybernateWorkload as the stubs see it: its pod, its checkpoints, and what they were asked. */
class FakeWorkload {
  readonly ref: ObjectRef = { namespace: 'default', name: uniqueName('kwl'), uid: uniqueName('uid') };
  idleMode: IdleMode = 'checkpoint';
  idleTimeoutMs = 2_000;
  /** The pod, when it exists; a new one is ready at once unless `podStartsReady` is false. */
  pod: { uid: string; ready: boolean; restoreFrom?: string } | undefined;
  podStartsReady = true;
  podsCreated = 0;
  readonly checkpoints = new Map<string, FakeCheckpoint>();
  /** What a new checkpoint becomes: completed at once unless a test says otherwise. */
  checkpointOutcome: (name: string) => FakeCheckpoint = (name) => ({ phase: 'Completed', checkpointRef: `containerd.io/checkpoint/${name}:20250101T120000.000Z`, nodeName: 'node-1' });
  /** What the API server answers a pod create with, while set (the activity's classified failure). */
  refusePod: ApplicationFailure | undefined;
  podRefusals = 0;
  /** Activities that fail once, after doing their work (a worker killed between the call and its result). */
  readonly failOnce = new Set<string>();

  /** What earlier runs of the workflow left (answered when the first pass asks). */
  earlier = { suspendedCheckpoints: 0, lastSuspend: 0 };
  earlierAsked = 0;
  readonly checkpointCreations: string[] = [];
  readonly checkpointLooks: string[] = [];
  readonly restoreFroms: (string | undefined)[] = [];
  /** The node each created pod was pinned to (a wake from a checkpoint kept on a node). */
  readonly pinnedTo: (string | undefined)[] = [];
  readonly deletedPods: string[] = [];
  readonly pruned: string[][] = [];
  readonly statuses: WorkloadStatusInput[] = [];
  get status(): WorkloadStatusInput | undefined {
    return this.statuses.at(-1);
  }

  /** Fails retryably (the activity is tried again), or, for a name starting with '!', fails the whole pass. */
  private failIfAsked(what: string): void {
    if (this.failOnce.delete(what)) throw new Error(`${what}: injected failure`);
    if (this.failOnce.delete(`!${what}`)) throw ApplicationFailure.nonRetryable(`${what}: injected failure`, 'Injected');
  }

  private podState(created: boolean): WorkloadPodState {
    const pod = this.pod!;
    return {
      podName: this.ref.name,
      podUID: pod.uid,
      phase: pod.ready ? 'Running' : 'Pending',
      ready: pod.ready,
      ...(created ? { created } : {}),
      ...(pod.restoreFrom ? { restoreFrom: pod.restoreFrom } : {}),
    };
  }

  activities(): WorkloadActivities {
    return {
      assessWorkload: async (_ref, opts) => {
        if (opts?.earlier) this.earlierAsked++;
        return {
          found: true,
          generation: 1,
          resourceVersion: '1',
          idleMode: this.idleMode,
          idleTimeoutMs: this.idleTimeoutMs,
          podName: this.ref.name,
          ...(opts?.earlier ? { earlier: this.earlier } : {}),
        };
      },
      applyWorkloadPod: async (_ref, opts) => {
        if (this.pod) return this.podState(false);
        if (this.refusePod) {
          this.podRefusals++;
          throw this.refusePod;
        }
        this.podsCreated++;
        this.restoreFroms.push(opts.restoreFrom);
        this.pinnedTo.push(opts.nodeName);
        this.pod = { uid: `pod-uid-${this.podsCreated}`, ready: this.podStartsReady, ...(opts.restoreFrom ? { restoreFrom: opts.restoreFrom } : {}) };
        return this.podState(true);
      },
      deleteWorkloadPod: async (_ref, pod) => {
        if (!this.pod || (pod.podUID && pod.podUID !== this.pod.uid)) return 'absent';
        this.deletedPods.push(this.pod.uid);
        this.pod = undefined;
        return 'gone';
      },
      applySuspendCheckpoint: async (_ref, { name }): Promise<SuspendCheckpointState> => {
        this.checkpointLooks.push(name);
        let cp = this.checkpoints.get(name);
        if (!cp) {
          this.checkpointCreations.push(name);
          cp = this.checkpointOutcome(name);
          this.checkpoints.set(name, cp);
          this.failIfAsked('applySuspendCheckpoint');
        }
        return {
          foreign: false,
          timeoutSeconds: 300,
          phase: cp.phase,
          ...(cp.checkpointRef ? { checkpointRef: cp.checkpointRef } : {}),
          ...(cp.nodeName ? { nodeName: cp.nodeName } : {}),
          ...(cp.message ? { message: cp.message } : {}),
        };
      },
      pruneSuspendCheckpoints: async (_ref, keep) => {
        this.pruned.push([...keep]);
        let deleted = 0;
        for (const name of [...this.checkpoints.keys()]) if (!keep.includes(name) && this.checkpoints.delete(name)) deleted++;
        return deleted;
      },
      writeWorkloadStatus: async (_ref, input) => {
        this.statuses.push(input);
        this.failIfAsked(`writeWorkloadStatus ${input.phase}`);
      },
    };
  }
}

describe('kybernateWorkloadWorkflow with stub activities', () => {
  const stub = stubWorkers();

  async function start(fake: FakeWorkload) {
    const taskQueue = `${uniqueName('kwl')}-core`;
    await stub.start(taskQueue, fake.activities());
    const handle = await stub.client.workflow.start(kybernateWorkloadWorkflow, {
      taskQueue,
      workflowId: `kybernateworkload/${fake.ref.namespace}/${fake.ref.name}/${fake.ref.uid}`,
      args: [{ ref: fake.ref, settings: TEST_SETTINGS, codeLevel: CODE_LEVEL }],
    });
    const reader = viewReader(stub.env, handle);
    const viewWhere = (what: string, ok: (v: WorkloadView) => boolean, timeoutMs?: number) => reader.viewWhere(what, ok, timeoutMs, 100);
    return { handle, viewWhere, poke: () => handle.signal(reconcileSignal, { reason: 'changed', fromResource: true }) };
  }

  it('runs its pod, suspends it after the idle timeout through a completed checkpoint, and restores from it on wake', async () => {
    const fake = new FakeWorkload();
    const { handle, viewWhere } = await start(fake);
    const running = await viewWhere('Running', (v) => v.phase === 'Running' && v.step === 'idle');
    expect(running.waitingFor).toMatch(/^no requests until \d{4}-/);
    expect(fake.status).toMatchObject({ phase: 'Running', activeReplicas: 1, suspendedCheckpoints: 0, podName: fake.ref.name, ready: { status: 'True' } });
    expect(fake.restoreFroms).toEqual([undefined]);

    const name = `${fake.ref.name}-suspend-1`;
    const image = `containerd.io/checkpoint/${name}:20250101T120000.000Z`;
    const suspended = await viewWhere('Suspended', (v) => v.phase === 'Suspended' && v.step === 'suspended');
    expect(suspended).toMatchObject({ suspendedCheckpoints: 1, checkpointName: name, checkpointImage: image, awake: false });
    expect(fake.checkpointCreations).toEqual([name]);
    expect(fake.deletedPods).toEqual(['pod-uid-1']);
    expect(fake.pod).toBeUndefined();
    expect(fake.pruned).toEqual([[name]]);
    expect(fake.status).toMatchObject({
      phase: 'Suspended',
      activeReplicas: 0,
      suspendedCheckpoints: 1,
      message: `Suspended while idle: the next request restores pod ${fake.ref.name} from checkpoint ${name} (${image})`,
      degraded: { status: 'False', reason: 'Checkpointed' },
    });

    // Nothing happens while suspended, however long.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(fake.checkpointCreations).toEqual([name]);
    expect(fake.podsCreated).toBe(1);

    fake.podStartsReady = false;
    await handle.signal(wakeSignal, { reason: 'request GET /' });
    const restoring = await viewWhere('Restoring', (v) => v.phase === 'Restoring');
    expect(restoring.waitingFor).toBe(`pod ${fake.ref.name} to be ready`);
    expect(fake.restoreFroms).toEqual([undefined, image]);
    // Pinned to the node whose containerd holds the checkpoint.
    expect(fake.pinnedTo).toEqual([undefined, 'node-1']);
    expect(fake.pod?.restoreFrom).toBe(image);
    expect(fake.status).toMatchObject({ phase: 'Restoring', message: `Restoring pod ${fake.ref.name} from ${image}`, ready: { status: 'False', reason: 'Restoring' } });

    fake.pod!.ready = true;
    await handle.signal(reconcileSignal, { reason: 'pods changed', fromResource: true });
    await viewWhere('Running again', (v) => v.phase === 'Running' && v.step === 'idle');
    expect(fake.status).toMatchObject({ phase: 'Running', message: `Pod ${fake.ref.name} restored from ${image} is running`, activeReplicas: 1, suspendedCheckpoints: 1 });

    // Idle again: a second checkpoint under the next name, the first one pruned.
    const second = `${fake.ref.name}-suspend-2`;
    const again = await viewWhere('Suspended again', (v) => v.phase === 'Suspended' && v.suspendedCheckpoints === 2);
    expect(again.checkpointName).toBe(second);
    expect(fake.checkpointCreations).toEqual([name, second]);
    expect(fake.pruned.at(-1)).toEqual([second]);
    expect([...fake.checkpoints.keys()]).toEqual([second]);
  });

  it('falls back to a cold scale-to-zero when the checkpoint fails: pod removed, SuspendDegraded, and the wake starts the pod fresh', async () => {
    const fake = new FakeWorkload();
    fake.checkpointOutcome = () => ({ phase: 'Failed', message: 'Pod default/x has no node' });
    const { handle, viewWhere } = await start(fake);
    const name = `${fake.ref.name}-suspend-1`;
    const suspended = await viewWhere('Suspended', (v) => v.phase === 'Suspended' && v.step === 'suspended');
    expect(suspended.suspendedCheckpoints).toBe(0);
    expect(suspended.checkpointImage).toBeUndefined();
    expect(fake.checkpointCreations).toEqual([name]);
    expect(fake.deletedPods).toEqual(['pod-uid-1']);
    // The failed checkpoint is kept (for inspection) until the next suspend.
    expect(fake.pruned).toEqual([[name]]);
    const degraded = `Checkpoint ${name} failed: Pod default/x has no node; suspended by a cold scale-to-zero instead (the next request starts the pod fresh)`;
    expect(fake.status).toMatchObject({
      phase: 'Suspended',
      suspendedCheckpoints: 0,
      activeReplicas: 0,
      message: `Suspended while idle by a cold scale-to-zero: the next request starts pod ${fake.ref.name} fresh`,
      degraded: { status: 'True', reason: 'CheckpointFailed', message: degraded },
    });

    // A request while suspended wakes it, like `wake`.
    await handle.signal(activitySignal, {});
    await viewWhere('Running', (v) => v.phase === 'Running' && v.step === 'idle' && v.awake);
    expect(fake.restoreFroms).toEqual([undefined, undefined]);
    expect(fake.pod?.restoreFrom).toBeUndefined();
    // The condition stays until a suspend keeps a checkpoint.
    expect(fake.status?.degraded).toMatchObject({ status: 'True', message: degraded });
  });

  it('finishes a suspend that a wake interrupts, then wakes at once', async () => {
    const fake = new FakeWorkload();
    fake.checkpointOutcome = () => ({ phase: 'InProgress' });
    const { handle, viewWhere, poke } = await start(fake);
    const name = `${fake.ref.name}-suspend-1`;
    const suspending = await viewWhere('Suspending', (v) => v.phase === 'Suspending');
    expect(suspending.waitingFor).toBe(`checkpoint ${name} to complete`);
    expect(fake.status).toMatchObject({ phase: 'Suspending', message: `Checkpointing pod ${fake.ref.name} (KybernateCheckpoint ${name} is InProgress)`, activeReplicas: 0 });
    expect(fake.pod).toBeDefined();

    await handle.signal(wakeSignal, { reason: 'request' });
    // The wake does not cut the suspend short: the checkpoint is still awaited, the pod still there.
    await viewWhere('a pass after the wake', (v) => v.wakeRequested && v.passes >= suspending.passes + 1);
    expect(fake.deletedPods).toEqual([]);
    const image = 'containerd.io/checkpoint/done:1';
    fake.checkpoints.set(name, { phase: 'Completed', checkpointRef: image });
    await poke();
    await viewWhere('Running from the checkpoint', (v) => v.phase === 'Running' && v.suspendedCheckpoints === 1 && v.step === 'idle');
    expect(fake.deletedPods).toEqual(['pod-uid-1']);
    expect(fake.restoreFroms).toEqual([undefined, image]);
    expect(fake.statuses.map((s) => s.phase).filter((p, i, all) => p !== all[i - 1])).toEqual(['Running', 'Suspending', 'Suspended', 'Running']);
    expect(fake.checkpointCreations).toEqual([name]);
  });

  it('keeps running while requests arrive: each activity signal starts the idle timer over', async () => {
    const fake = new FakeWorkload();
    fake.idleTimeoutMs = 3_000;
    const { handle, viewWhere } = await start(fake);
    await viewWhere('Running', (v) => v.phase === 'Running' && v.step === 'idle');
    // Requests every 500ms of the workflows' time for 6s: twice the idle timeout, and no suspend.
    for (let i = 0; i < 12; i++) {
      await handle.signal(activitySignal, { at: stub.clock.now().toISOString() });
      await stub.env.sleep(500);
      await stub.clock.refresh();
    }
    expect(fake.checkpointCreations).toEqual([]);
    expect((await viewReader(stub.env, handle).view()).phase).toBe('Running');
    // A request's own time never moves the timer into the future.
    await handle.signal(activitySignal, { at: new Date(stub.clock.nowMs() + 3_600_000).toISOString() });
    const quiet = stub.clock.nowMs();
    await viewReader(stub.env, handle).skipUntil('Suspended', (v) => v.phase === 'Suspended', 20_000, 500);
    await stub.clock.refresh();
    expect(stub.clock.nowMs() - quiet).toBeGreaterThanOrEqual(2_000);
    expect(stub.clock.nowMs() - quiet).toBeLessThan(15_000);
    expect(fake.checkpointCreations).toEqual([`${fake.ref.name}-suspend-1`]);
  });

  it('goes on suspending when a cut-off pass already deleted the pod: the idle pass never creates it again', async () => {
    const fake = new FakeWorkload();
    fake.idleTimeoutMs = 3_000;
    const { viewWhere } = await start(fake);
    await viewWhere('Running', (v) => v.phase === 'Running' && v.step === 'idle');
    // What a pass cut off by a killed worker leaves (its results never recorded): the checkpoint made, the pod deleted.
    const name = `${fake.ref.name}-suspend-1`;
    fake.checkpoints.set(name, { phase: 'Failed', message: 'criu failed' });
    fake.pod = undefined;
    const v = await viewWhere('Suspended', (x) => x.phase === 'Suspended', 20_000);
    expect(v.suspends).toBe(1);
    expect(fake.podsCreated).toBe(1);
    expect(fake.checkpointCreations).toEqual([]);
    expect(fake.deletedPods).toEqual([]);
    expect(fake.status?.degraded).toMatchObject({ status: 'True', message: expect.stringContaining(`Checkpoint ${name} failed: criu failed`) });
  });

  it('a run that starts afresh goes on from what earlier runs left: the next suspend number, the count', async () => {
    const fake = new FakeWorkload();
    fake.earlier = { suspendedCheckpoints: 2, lastSuspend: 4 };
    const { viewWhere } = await start(fake);
    const v = await viewWhere('Suspended', (x) => x.phase === 'Suspended');
    expect(v).toMatchObject({ suspends: 5, suspendedCheckpoints: 3, checkpointName: `${fake.ref.name}-suspend-5` });
    expect(fake.checkpointCreations).toEqual([`${fake.ref.name}-suspend-5`]);
    expect(fake.status).toMatchObject({ suspendedCheckpoints: 3 });
    // Asked once, by the first pass.
    expect(fake.earlierAsked).toBe(1);
  });

  it('reports a pod the API server refuses (Failed, its reason and message) without crashing, and runs once the spec is fixed', async () => {
    const fake = new FakeWorkload();
    const name = fake.ref.name;
    // What the real activity throws when the RuntimeClass admission refuses the pod (non-retryable).
    const detail = `pods "${name}" is forbidden: pod rejected: RuntimeClass "nvidia" not found`;
    fake.refusePod = toActivityFailure({ code: 403, body: { kind: 'Status', status: 'Failure', reason: 'Forbidden', message: detail, code: 403 } }, `apply pods ${name}`);
    expect(fake.refusePod).toMatchObject({ type: 'KubeForbidden', nonRetryable: true });
    const { handle, viewWhere, poke } = await start(fake);

    const failed = await viewWhere('Failed', (v) => v.phase === 'Failed' && v.failures >= 2);
    const message = `The API server refused pod ${name}: ${detail}`;
    expect(fake.status).toMatchObject({ phase: 'Failed', message, activeReplicas: 0, suspendedCheckpoints: 0, ready: { status: 'False', reason: 'KubeForbidden', message } });
    // The refusal once in the message; every pass reports the same status.
    expect(message.split(detail)).toHaveLength(2);
    expect(new Set(fake.statuses.map((st) => JSON.stringify({ ...st, lastActivityTime: undefined })))).toEqual(new Set([JSON.stringify({ ...fake.status, lastActivityTime: undefined })]));
    // The pass still fails (what `kar status` shows) and is tried again after a backoff; never retried within a pass.
    expect(failed).toMatchObject({ step: 'pod', message, lastError: { step: 'pod', type: 'KubeForbidden', message: `apply pods ${name}: ${detail}` } });
    expect(fake.podRefusals).toBeGreaterThanOrEqual(2);
    expect(fake.podRefusals).toBeLessThanOrEqual(failed.failures + 1);
    expect(fake.podsCreated).toBe(0);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    // The spec fixed: the watch's signal runs a pass at once, and the workload runs.
    fake.refusePod = undefined;
    await poke();
    const running = await viewWhere('Running', (v) => v.phase === 'Running' && v.step === 'idle', 10_000);
    expect(running.failures).toBe(0);
    expect(running.lastError).toBeUndefined();
    expect(fake.podsCreated).toBe(1);
    expect(fake.status).toMatchObject({ phase: 'Running', message: `Pod ${name} is running`, activeReplicas: 1, ready: { status: 'True', reason: 'Running' } });
    expect(fake.statuses.map((st) => st.phase).filter((p, i, all) => p !== all[i - 1])).toEqual(['Failed', 'Running']);
  });

  it('goes to zero without a checkpoint when only scaleToZero is enabled', async () => {
    const fake = new FakeWorkload();
    fake.idleMode = 'cold';
    const { viewWhere } = await start(fake);
    await viewWhere('Suspended', (v) => v.phase === 'Suspended' && v.step === 'suspended');
    expect(fake.checkpointCreations).toEqual([]);
    expect(fake.deletedPods).toEqual(['pod-uid-1']);
    expect(fake.status).toMatchObject({ phase: 'Suspended', suspendedCheckpoints: 0, degraded: { status: 'False', reason: 'NoFallback' } });
  });

  it('never idles out when neither suspend nor scale-to-zero is enabled', async () => {
    const fake = new FakeWorkload();
    fake.idleMode = 'never';
    const { viewWhere } = await start(fake);
    const v = await viewWhere('Running', (x) => x.phase === 'Running' && x.step === 'idle');
    expect(v.waitingFor).toBeUndefined();
    await new Promise((r) => setTimeout(r, fake.idleTimeoutMs + 1_500));
    expect(fake.checkpointCreations).toEqual([]);
    expect(fake.deletedPods).toEqual([]);
  });

  it('runs a suspend step again after failures (the checkpoint created but its result lost, a status write refused) without a second checkpoint', async () => {
    const fake = new FakeWorkload();
    fake.checkpointOutcome = () => ({ phase: 'InProgress' });
    fake.failOnce.add('applySuspendCheckpoint');
    fake.failOnce.add('!writeWorkloadStatus Suspending');
    const { viewWhere, poke } = await start(fake);
    const name = `${fake.ref.name}-suspend-1`;
    // The lost result is retried by the activity's own retry; the refused status write fails the pass,
    // and the loop's backoff runs the pass again, which finds the same checkpoint.
    const failed = await viewWhere('the failed pass', (v) => v.lastError !== undefined);
    expect(failed.lastError).toMatchObject({ step: 'checkpoint', message: expect.stringContaining('writeWorkloadStatus Suspending: injected failure') });
    await viewWhere('Suspending after the failures', (v) => v.phase === 'Suspending' && v.step === 'checkpoint' && v.failures === 0 && fake.failOnce.size === 0);
    expect(fake.checkpointLooks.length).toBeGreaterThanOrEqual(3);
    expect(new Set(fake.checkpointLooks)).toEqual(new Set([name]));
    fake.checkpoints.set(name, { phase: 'Completed', checkpointRef: 'containerd.io/checkpoint/x:1' });
    await poke();
    const v = await viewWhere('Suspended', (x) => x.phase === 'Suspended');
    expect(v).toMatchObject({ suspends: 1, suspendedCheckpoints: 1 });
    expect(fake.checkpointCreations).toEqual([name]);
    expect(fake.deletedPods).toEqual(['pod-uid-1']);
  });
});
