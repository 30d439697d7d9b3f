import { describe, expect, it } from 'vitest';
import { ARTIFACTS_FINALIZER } from '../../api/kybernate/constants.ts';
import type { CheckpointStatusInput } from '../../contract/kybernate-activities.ts';
import { kubeStatusError, noCluster } from '../testing/fake-kube.ts';
import { NS, runningPod, storedExample } from '../testing/kybernate.ts';
import { runActivity } from '../testing/run-activity.ts';
import { createCheckpointActivities } from './create-checkpoint-activities.ts';
import { KYBERNATE_CHECKPOINT } from './kinds.ts';
import { podResource } from './kybernate-clients.ts';

/** The example checkpoint as stored (of pod `gpu-inference`, container `model`), and its activities over the fakes. */
function stored(edit?: (spec: Record<string, unknown>) => object, metadata?: object) {
  const s = storedExample(KYBERNATE_CHECKPOINT, 'kybernate-checkpoint.yaml', edit, metadata);
  return { ...s, activities: createCheckpointActivities({ kc: noCluster() }, { objects: s.objects, recorder: s.recorder }) };
}

describe('assessCheckpoint', () => {
  it('adds its finalizer before anything is made on a node, and says how to dump', async () => {
    const s = stored();
    expect(await runActivity(s.activities.assessCheckpoint, s.ref)).toMatchObject({ found: true, hasFinalizer: true, leaveRunning: true, timeoutSeconds: 300, gpuPluginPath: '/usr/local/lib/criu' });
    expect(s.stored()?.metadata?.finalizers).toEqual([ARTIFACTS_FINALIZER]);
  });

  it('an invalid checkpoint is refused with an event and gets no finalizer; a deleting one is only reported', async () => {
    const invalid = stored((spec) => ({ ...spec, timeout: -1 }));
    expect(await runActivity(invalid.activities.assessCheckpoint, invalid.ref)).toMatchObject({ invalid: expect.any(String), hasFinalizer: false });
    expect(invalid.recorder.reasons()).toEqual(['InvalidSpec']);
    const deleting = stored(undefined, { deletionTimestamp: '2026-01-01T00:00:00Z' });
    expect(await runActivity(deleting.activities.assessCheckpoint, deleting.ref)).toMatchObject({ deleting: true, hasFinalizer: false });
  });

  it('a finalizer write the API server refuses fails with its type', async () => {
    const s = stored();
    s.objects.failNext('jsonPatch', kubeStatusError(403, 'Forbidden'));
    await expect(runActivity(s.activities.assessCheckpoint, s.ref)).rejects.toMatchObject({ type: 'KubeForbidden', nonRetryable: true });
  });
});

describe('resolveCheckpointPod', () => {
  it('the node and container id of the running container', async () => {
    const s = stored();
    s.objects.put(podResource(NS, 'gpu-inference'), runningPod('gpu-inference', { node: 'gpu-node-1' }));
    expect(await runActivity(s.activities.resolveCheckpointPod, s.ref)).toEqual({ ok: true, nodeName: 'gpu-node-1', containerName: 'model', containerId: 'abc123' });
  });

  it('says why it cannot: no pod, or its container not running', async () => {
    const s = stored();
    expect(await runActivity(s.activities.resolveCheckpointPod, s.ref)).toMatchObject({ ok: false, reason: 'PodNotFound' });
    s.objects.put(podResource(NS, 'gpu-inference'), runningPod('gpu-inference', { containers: [{ name: 'model' }] }));
    expect(await runActivity(s.activities.resolveCheckpointPod, s.ref)).toMatchObject({ ok: false, reason: 'ContainerNotFound' });
  });
});

describe('writeCheckpointStatus, removeCheckpointFinalizer, recordCheckpointEvent', () => {
  it('write the status with Ready, take the finalizer off, record the event', async () => {
    const s = stored(undefined, { finalizers: [ARTIFACTS_FINALIZER] });
    const status: CheckpointStatusInput = { phase: 'Completed', message: 'done', checkpointRef: 'img', ready: { status: 'True', reason: 'CheckpointCompleted', message: 'done' } };
    await runActivity(s.activities.writeCheckpointStatus, s.ref, status);
    expect(s.stored()?.status).toMatchObject({ phase: 'Completed', checkpointRef: 'img', conditions: [{ type: 'Ready', status: 'True' }] });
    await runActivity(s.activities.removeCheckpointFinalizer, s.ref);
    expect(s.stored()?.metadata?.finalizers).toEqual([]);
    await runActivity(s.activities.recordCheckpointEvent, s.ref, { type: 'Normal', reason: 'ImageDeleted', message: 'img' });
    expect(s.recorder.reasons()).toEqual(['ImageDeleted']);
  });
});
