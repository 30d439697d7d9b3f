// The KybernateCheckpoint workflow in Temporal's test environment (on the local stack's Temporal server)
// with stub activities: a fake checkpoint object the cluster-side stubs read and write (local activities
// on the workflow's own worker, like the core worker's), and stub node activities on the node's own task
// queue, served by a second worker, as the node worker beside containerd would serve them. Every branch:
// the object gone, invalid, terminal, the pod unusable (no node call), the dump's outcomes (completed,
// CRIU's refusal, a retryable failure, the timeout, no node worker), and deletion with its bounded cleanup.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { nodeTaskQueue } from '../../api/kybernate/constants.ts';
import type { CheckpointActivities, CheckpointAssessment, CheckpointResult, CheckpointStatusInput, NodeActivities, PodResolution } from '../../contract/kybernate-activities.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { kybernateCheckpointWorkflow } from '../../workflows/kybernate/checkpoint.ts';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import { TEST_SETTINGS } from '../support/controller.ts';
import { uniqueName } from '../support/env.ts';
import { CODE_LEVEL } from '../../workflows/engine/code-level.ts';
import { stubWorkers } from './stub-workers.ts';
import { skippedResult, viewReader } from './workflow-views.ts';

const CONTAINER_ID = 'b7c1e2d3f4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f809';
const IMAGE = `containerd.io/checkpoint/${CONTAINER_ID}:20250101T120000.000Z`;
/** 2.2 GiB: the seed's example size. */
const SIZE = 2_362_232_012;

type CheckpointInput = Parameters<NodeActivities['checkpointContainer']>[0];
type EventInput = Parameters<CheckpointActivities['recordCheckpointEvent']>[1];

/**
 * One KybernateCheckpoint as the stubs see it, what the stubs answer next, and what they were asked. The
 * cluster-side stubs behave like the real ones where the workflow depends on it: the assessment reports
 * the phase, image and node the status holds and adds the finalizer, and removing the finalizer of a
 * deleting object makes it gone.
 */
class FakeCheckpoint {
  readonly ref: ObjectRef = { namespace: 'default', name: uniqueName('kcp'), uid: uniqueName('uid') };
  readonly node = uniqueName('node');
  exists = true;
  finalizer = false;
  deletionTimestamp: string | undefined;
  invalid: string | undefined;
  paused = false;
  leaveRunning = true;
  timeoutSeconds = 300;
  gpuPluginPath: string | undefined;
  status: Partial<CheckpointStatusInput> = {};

  pod: () => PodResolution = () => ({ ok: true, nodeName: this.node, containerId: CONTAINER_ID, containerName: 'model' });
  /** Fails the n-th status write (1-based) when it returns an error. */
  statusWrite: (n: number, input: CheckpointStatusInput) => Error | undefined = () => undefined;
  dump: (input: CheckpointInput) => Promise<CheckpointResult> = async () => ({ ref: IMAGE, size: SIZE });
  deleteImage: (input: { ref: string }) => Promise<{ deleted: boolean }> = async () => ({ deleted: true });

  assessments = 0;
  resolutions = 0;
  readonly statuses: CheckpointStatusInput[] = [];
  readonly events: EventInput[] = [];
  readonly dumps: CheckpointInput[] = [];
  readonly deletes: { ref: string; at: number }[] = [];
  /** Every call, in order: what happened before what. */
  readonly log: string[] = [];

  activities(): CheckpointActivities {
    return {
      assessCheckpoint: async () => {
        this.assessments++;
        if (!this.exists) return { found: false };
        const seen: CheckpointAssessment = {
          found: true,
          generation: 1,
          resourceVersion: String(this.assessments),
          hasFinalizer: this.finalizer,
          ...(this.status.phase ? { phase: this.status.phase } : {}),
          ...(this.status.checkpointRef ? { checkpointRef: this.status.checkpointRef } : {}),
          ...(this.status.nodeName ? { nodeName: this.status.nodeName } : {}),
        };
        if (this.deletionTimestamp) return { ...seen, deleting: true, deletionTimestamp: this.deletionTimestamp };
        if (this.paused) return { ...seen, paused: true };
        if (this.invalid) return { ...seen, invalid: this.invalid };
        this.finalizer = true;
        return { ...seen, hasFinalizer: true, leaveRunning: this.leaveRunning, timeoutSeconds: this.timeoutSeconds, ...(this.gpuPluginPath ? { gpuPluginPath: this.gpuPluginPath } : {}) };
      },
      resolveCheckpointPod: async () => {
        this.resolutions++;
        this.log.push('resolve');
        return this.pod();
      },
      writeCheckpointStatus: async (_ref, input) => {
        this.log.push(`status ${input.phase}`);
        const err = this.statusWrite(this.log.filter((l) => l.startsWith('status ')).length, input);
        if (err) throw err;
        this.statuses.push(input);
        this.status = { ...this.status, ...input };
      },
      removeCheckpointFinalizer: async () => {
        this.log.push('finalizer removed');
        this.finalizer = false;
        if (this.deletionTimestamp) this.exists = false;
      },
      recordCheckpointEvent: async (_ref, event) => {
        this.log.push(`event ${event.reason}`);
        this.events.push(event);
      },
    };
  }

  nodeActivities(): NodeActivities {
    return {
      checkpointContainer: async (input) => {
        this.log.push('dump');
        this.dumps.push(input);
        return this.dump(input);
      },
      deleteCheckpointImage: async (input) => {
        this.log.push(`delete ${input.ref}`);
        this.deletes.push({ ...input, at: Date.now() });
        return this.deleteImage(input);
      },
    };
  }
}

const failure = (type: string, message: string, nonRetryable: boolean) => ApplicationFailure.create({ type, message, nonRetryable });

/** The message runc's CRIU failure carries (Debian 12's CRIU 3.17 on a recent kernel), as the node worker reports it. */
const CRIU_MESSAGE = `checkpoint container ${CONTAINER_ID}: criu failed: type NOTIFY errno 0 path= /run/containerd/io.containerd.runtime.v2.task/k8s.io/${CONTAINER_ID}/criu-dump.log: runc did not terminate successfully`;

describe('kybernateCheckpointWorkflow with stub activities', () => {
  const stub = stubWorkers();

  /**
   * Starts the workflow on a task queue of its own (and under a task-queue prefix of its own, so its node
   * queue is its own too), with the node's worker unless `nodeWorker` is false.
   */
  async function start(fake: FakeCheckpoint, opts: { settings?: Partial<ReconcileSettings>; nodeWorker?: boolean } = {}) {
    const taskQueuePrefix = uniqueName('kyb');
    const taskQueue = `${taskQueuePrefix}-core`;
    await stub.start(taskQueue, fake.activities());
    if (opts.nodeWorker ?? true) {
      await stub.start(nodeTaskQueue(taskQueuePrefix, fake.node), fake.nodeActivities(), { workflows: false });
    }
    const handle = await stub.client.workflow.start(kybernateCheckpointWorkflow, {
      taskQueue,
      workflowId: `kybernatecheckpoint/${fake.ref.namespace}/${fake.ref.name}/${fake.ref.uid}`,
      args: [{ ref: fake.ref, settings: { ...TEST_SETTINGS, ...opts.settings, taskQueuePrefix }, codeLevel: CODE_LEVEL }],
    });
    const { view, viewWhere } = viewReader(stub.env, handle);
    /** Idle after a terminal phase (the pass that wrote it has ended). */
    const settled = (what: string, timeoutMs?: number) => viewWhere(what, (v) => v.step === 'idle' && (v.phase === 'Completed' || v.phase === 'Failed'), timeoutMs);
    /** Marks the object deleted (now, unless given) and tells the workflow. */
    const deleteObject = async (at = stub.clock.now()) => {
      fake.deletionTimestamp = at.toISOString();
      await handle.signal(reconcileSignal, { reason: 'deleted' });
    };
    return { handle, view, viewWhere, settled, deleteObject };
  }

  it('ends at once when the object is gone', async () => {
    const fake = new FakeCheckpoint();
    fake.exists = false;
    const { handle } = await start(fake);
    const final = await skippedResult(stub.env, handle);
    expect(final.passes).toBe(1);
    expect(fake.log).toEqual([]);
  });

  it('reports an invalid spec as Failed and touches neither the pod nor the node', async () => {
    const fake = new FakeCheckpoint();
    fake.invalid = 'spec.podName: Required value';
    const { viewWhere } = await start(fake);
    const v = await viewWhere('waiting for a valid spec', (x) => x.waitingFor === 'a valid spec');
    expect(v).toMatchObject({ phase: 'Failed', message: 'spec.podName: Required value', step: 'idle' });
    expect(fake.statuses).toEqual([{ phase: 'Failed', message: 'spec.podName: Required value', ready: { status: 'False', reason: 'InvalidSpec', message: 'spec.podName: Required value' } }]);
    expect(fake.resolutions).toBe(0);
    expect(fake.dumps).toEqual([]);
  });

  it('pauses without a status write while the annotation is set', async () => {
    const fake = new FakeCheckpoint();
    fake.paused = true;
    const { viewWhere } = await start(fake);
    const v = await viewWhere('paused', (x) => x.step === 'paused');
    expect(v.waitingFor).toBe('the pause annotation to be removed');
    expect(fake.log).toEqual([]);
  });

  it.each(['Completed', 'Failed'] as const)('is one-shot: a %s checkpoint stays so, with no pod read and no node call, pass after pass', async (phase) => {
    const fake = new FakeCheckpoint();
    fake.status = { phase, message: 'from an earlier run', checkpointRef: phase === 'Completed' ? IMAGE : undefined, nodeName: fake.node };
    const { handle, viewWhere } = await start(fake);
    await viewWhere('idle', (v) => v.step === 'idle' && v.passes >= 1);
    await handle.signal(reconcileSignal, { reason: 'resync' });
    const v = await viewWhere('a second pass', (x) => x.passes >= 2 && x.step === 'idle');
    expect(v.phase).toBe(phase);
    expect(fake.log).toEqual([]);
  });

  it.each([
    { reason: 'PodNotFound', message: 'Pod default/gpu-inference does not exist' },
    { reason: 'PodNotRunning', message: 'Pod default/gpu-inference is Pending, not Running' },
    { reason: 'PodNotScheduled', message: 'Pod default/gpu-inference has no node' },
    { reason: 'ContainerNotFound', message: "Container 'model' of pod default/gpu-inference is not running" },
  ] as const)('fails with $reason, and no node activity is called', async ({ reason, message }) => {
    const fake = new FakeCheckpoint();
    fake.pod = () => ({ ok: false, reason, message });
    const { settled } = await start(fake);
    const v = await settled('Failed');
    expect(v).toMatchObject({ phase: 'Failed', message });
    expect(fake.statuses).toEqual([{ phase: 'Failed', message, ready: { status: 'False', reason, message } }]);
    expect(fake.log).toEqual(['resolve', 'status Failed']);
    expect(fake.dumps).toEqual([]);
  });

  it('writes InProgress, dumps on the pod\'s node, then Completed with the image, its size, the times and Ready=True', async () => {
    const fake = new FakeCheckpoint();
    const before = stub.clock.nowMs();
    const { settled } = await start(fake);
    const v = await settled('Completed');
    expect(v).toMatchObject({ phase: 'Completed', message: `Checkpoint ${IMAGE} (2.2Gi)` });
    expect(fake.log).toEqual(['resolve', 'status InProgress', 'dump', 'status Completed']);
    expect(fake.dumps).toEqual([{ containerId: CONTAINER_ID, leaveRunning: true }]);

    const [inProgress, completed] = fake.statuses;
    expect(inProgress).toEqual({
      phase: 'InProgress',
      message: `Checkpointing container model on node ${fake.node}`,
      nodeName: fake.node,
      containerID: CONTAINER_ID,
      startTime: expect.any(String),
      ready: { status: 'False', reason: 'InProgress', message: 'Checkpoint in progress' },
    });
    expect(completed).toEqual({
      phase: 'Completed',
      message: `Checkpoint ${IMAGE} (2.2Gi)`,
      nodeName: fake.node,
      containerID: CONTAINER_ID,
      checkpointRef: IMAGE,
      checkpointSize: '2.2Gi',
      startTime: inProgress!.startTime,
      completionTime: expect.any(String),
      ready: { status: 'True', reason: 'Completed', message: 'Checkpoint completed' },
    });
    const start_ = Date.parse(inProgress!.startTime!);
    const end = Date.parse(completed!.completionTime!);
    expect(start_).toBeGreaterThanOrEqual(before - 1_000);
    expect(end).toBeGreaterThanOrEqual(start_);
    await stub.clock.refresh();
    expect(end).toBeLessThanOrEqual(stub.clock.nowMs() + 1_000);
  });

  it('passes leaveRunning: false (runc\'s exit) and the GPU plugin folder to the node untouched', async () => {
    const fake = new FakeCheckpoint();
    fake.leaveRunning = false;
    fake.gpuPluginPath = '/usr/local/lib/criu';
    fake.dump = async () => ({ ref: IMAGE, size: 512 * 1024 * 1024 });
    const { settled } = await start(fake);
    const v = await settled('Completed');
    expect(v.phase).toBe('Completed');
    expect(fake.dumps).toEqual([{ containerId: CONTAINER_ID, leaveRunning: false, gpuPluginPath: '/usr/local/lib/criu' }]);
    expect(fake.status.checkpointSize).toBe('512Mi');
  });

  it('fails with CRIU\'s message when the dump fails, and never dumps again', async () => {
    const fake = new FakeCheckpoint();
    fake.dump = async () => {
      throw failure('ContainerdCheckpointFailed', CRIU_MESSAGE, true);
    };
    const { handle, settled, viewWhere } = await start(fake);
    const v = await settled('Failed');
    expect(v.message).toBe(CRIU_MESSAGE);
    expect(fake.status).toMatchObject({ phase: 'Failed', message: CRIU_MESSAGE, nodeName: fake.node, containerID: CONTAINER_ID, ready: { status: 'False', reason: 'ContainerdCheckpointFailed', message: CRIU_MESSAGE } });
    expect(fake.status.completionTime).toEqual(expect.any(String));
    expect(fake.status.checkpointRef).toBeUndefined();
    // Another pass (a resync, an edit) leaves a failed checkpoint failed.
    await handle.signal(reconcileSignal, { reason: 'resync' });
    await viewWhere('another pass', (x) => x.passes >= 2 && x.step === 'idle');
    expect(fake.dumps).toHaveLength(1);
    expect(fake.log.filter((l) => l === 'dump')).toEqual(['dump']);
  });

  it('tries a dump that failed retryably once more, and completes when the second attempt does', async () => {
    const fake = new FakeCheckpoint();
    fake.dump = async () => {
      if (fake.dumps.length === 1) throw failure('ContainerdUnavailable', 'containerd did not answer', false);
      return { ref: IMAGE, size: SIZE };
    };
    const { settled } = await start(fake);
    const v = await settled('Completed');
    expect(v.phase).toBe('Completed');
    expect(fake.dumps).toHaveLength(2);
  });

  it('tries a retryable failure at most twice, then fails with its message', async () => {
    const fake = new FakeCheckpoint();
    fake.dump = async () => {
      throw failure('ContainerdUnavailable', 'checkpoint container x: containerd did not answer', false);
    };
    const { settled } = await start(fake);
    const v = await settled('Failed');
    expect(v.message).toBe('checkpoint container x: containerd did not answer');
    expect(fake.status.ready).toEqual({ status: 'False', reason: 'ContainerdUnavailable', message: 'checkpoint container x: containerd did not answer' });
    expect(fake.dumps).toHaveLength(2);
  });

  it('fails after spec.timeout when the dump takes longer, heartbeating, and does not dump a second time', async () => {
    const fake = new FakeCheckpoint();
    fake.timeoutSeconds = 2;
    fake.dump = async () => {
      const ctx = Context.current();
      for (const until = Date.now() + 20_000; Date.now() < until; ) {
        ctx.heartbeat();
        await ctx.sleep(200);
      }
      return { ref: IMAGE, size: SIZE };
    };
    const t0 = Date.now();
    const { settled } = await start(fake);
    const v = await settled('Failed');
    const took = Date.now() - t0;
    expect(v.message).toBe('Checkpoint timed out after 2s');
    expect(fake.status).toMatchObject({ phase: 'Failed', message: 'Checkpoint timed out after 2s', ready: { status: 'False', reason: expect.stringMatching(/^Timeout/), message: 'Checkpoint timed out after 2s' } });
    // Bounded by spec.timeout as a whole: no second attempt after a dump that may have half happened.
    expect(fake.dumps).toHaveLength(1);
    expect(took).toBeLessThan(10_000);
  });

  it('fails as unavailable when no worker serves the node\'s task queue', async () => {
    const fake = new FakeCheckpoint();
    const { settled } = await start(fake, { nodeWorker: false, settings: { providerScheduleToStart: '2s' } });
    const v = await settled('Failed');
    const message = `The node worker of '${fake.node}' is not available: no worker is serving its task queue`;
    expect(v.message).toBe(message);
    expect(fake.status).toMatchObject({ phase: 'Failed', message, ready: { status: 'False', reason: 'ProviderUnavailable', message } });
    expect(fake.log).toEqual(['resolve', 'status InProgress', 'status Failed']);
  });

  it('on deletion deletes the image on its node, then removes the finalizer, and ends', async () => {
    const fake = new FakeCheckpoint();
    const { handle, settled, deleteObject } = await start(fake);
    await settled('Completed');
    expect(fake.finalizer).toBe(true);
    await deleteObject();
    await skippedResult(stub.env, handle);
    expect(fake.deletes.map((d) => d.ref)).toEqual([IMAGE]);
    expect(fake.log.slice(-2)).toEqual([`delete ${IMAGE}`, 'finalizer removed']);
    expect(fake.exists).toBe(false);
    expect(fake.events).toEqual([]);
  });

  it('on deletion of a checkpoint that made no image removes the finalizer without a node call', async () => {
    const fake = new FakeCheckpoint();
    fake.pod = () => ({ ok: false, reason: 'PodNotFound', message: 'Pod default/x does not exist' });
    const { handle, settled, deleteObject } = await start(fake, { nodeWorker: false });
    await settled('Failed');
    await deleteObject();
    await skippedResult(stub.env, handle);
    expect(fake.log).toEqual(['resolve', 'status Failed', 'finalizer removed']);
  });

  it('on deletion whose node never answers, removes the finalizer at the deadline with a FinalizerTimeout event', async () => {
    const fake = new FakeCheckpoint();
    // A checkpoint made earlier on a node whose worker is gone now.
    fake.status = { phase: 'Completed', message: 'done', checkpointRef: IMAGE, nodeName: fake.node };
    const { handle, viewWhere, deleteObject } = await start(fake, { nodeWorker: false, settings: { cleanupTimeout: '3s' } });
    await viewWhere('idle', (v) => v.step === 'idle');
    const deletedAt = stub.clock.now();
    await deleteObject(deletedAt);
    await skippedResult(stub.env, handle);
    // In the workflows' time: when the run ended, just after it removed the finalizer.
    await stub.clock.refresh();
    const waited = stub.clock.nowMs() - deletedAt.getTime();
    expect(waited).toBeGreaterThanOrEqual(2_900);
    expect(waited).toBeLessThan(15_000);
    expect(fake.events).toEqual([
      {
        type: 'Warning',
        reason: 'FinalizerTimeout',
        message: `Could not delete checkpoint image ${IMAGE} on node ${fake.node} (The node worker of '${fake.node}' is not available: no worker is serving its task queue); it may be left behind`,
      },
    ]);
    expect(fake.log).toEqual(['event FinalizerTimeout', 'finalizer removed']);
  });

  it('on deletion whose node refuses, tries again at the poll interval (not in a busy loop) until the deadline', async () => {
    const fake = new FakeCheckpoint();
    fake.status = { phase: 'Completed', message: 'done', checkpointRef: IMAGE, nodeName: fake.node };
    fake.deleteImage = async () => {
      throw failure('ContainerdInvalid', `delete checkpoint image ${IMAGE}: image ${IMAGE} is not a checkpoint`, true);
    };
    const { handle, viewWhere, deleteObject } = await start(fake, { settings: { cleanupTimeout: '4s', pollInterval: '1s' } });
    await viewWhere('idle', (v) => v.step === 'idle');
    await deleteObject();
    await skippedResult(stub.env, handle);
    // Once at once, then about once a poll interval: a handful, not hundreds.
    expect(fake.deletes.length).toBeGreaterThanOrEqual(2);
    expect(fake.deletes.length).toBeLessThanOrEqual(7);
    expect(fake.events.map((e) => e.reason)).toEqual(['FinalizerTimeout']);
    expect(fake.events[0]!.message).toContain('is not a checkpoint');
    expect(fake.log.at(-1)).toBe('finalizer removed');
  });

  it('never dumps twice when the pass fails after the dump (the Completed write), and still reports Completed', async () => {
    const fake = new FakeCheckpoint();
    fake.statusWrite = (n, input) => (input.phase === 'Completed' && n === 2 ? failure('KubeForbidden', 'kybernatecheckpoints/status is forbidden', true) : undefined);
    const { settled } = await start(fake);
    const v = await settled('Completed');
    expect(v.phase).toBe('Completed');
    expect(fake.dumps).toHaveLength(1);
    expect(fake.status).toMatchObject({ phase: 'Completed', checkpointRef: IMAGE, checkpointSize: '2.2Gi' });
  });

  it('on deletion while the Completed write is still refused, deletes the image the dump made', async () => {
    const fake = new FakeCheckpoint();
    fake.statusWrite = (_n, input) => (input.phase === 'Completed' ? failure('KubeForbidden', 'kybernatecheckpoints/status is forbidden', true) : undefined);
    const { handle, viewWhere, deleteObject } = await start(fake);
    await viewWhere('the write failed', (v) => v.lastError?.type === 'KubeForbidden');
    expect(fake.status.phase).toBe('InProgress');
    await deleteObject();
    await skippedResult(stub.env, handle);
    expect(fake.dumps).toHaveLength(1);
    expect(fake.deletes.map((d) => d.ref)).toEqual([IMAGE]);
    expect(fake.log.slice(-2)).toEqual([`delete ${IMAGE}`, 'finalizer removed']);
  });
});
