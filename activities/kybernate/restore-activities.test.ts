import { describe, expect, it } from 'vitest';
import type { RestoreStatusInput } from '../../contract/kybernate-restore-activities.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { kubeStatusError, noCluster } from '../testing/fake-kube.ts';
import { NS, runningPod, storedExample } from '../testing/kybernate.ts';
import { runActivity } from '../testing/run-activity.ts';
import { createRestoreActivities } from './create-restore-activities.ts';
import { KYBERNATE_CHECKPOINT, KYBERNATE_RESTORE } from './kinds.ts';
import { podResource } from './kybernate-clients.ts';

const checkpointResource = { group: KYBERNATE_CHECKPOINT.group, version: KYBERNATE_CHECKPOINT.version, plural: KYBERNATE_CHECKPOINT.plural, namespace: NS, name: 'my-gpu-checkpoint' };

/** The example restore as stored (its checkpoint `my-gpu-checkpoint`), and its activities over the fakes. */
function stored(edit?: (spec: Record<string, unknown>) => object, metadata?: object) {
  const s = storedExample(KYBERNATE_RESTORE, 'kybernate-restore.yaml', edit, metadata);
  const checkpoint = (fields: AnyObject) => s.objects.put(checkpointResource, { spec: { podName: 'gpu-inference', containerName: 'model', storage: { type: 'containerd' } }, ...fields });
  return { ...s, checkpoint, activities: createRestoreActivities({ kc: noCluster() }, { objects: s.objects, recorder: s.recorder }) };
}

describe('assessRestore', () => {
  it('its timeout and checkpoint; an invalid restore is refused with an event', async () => {
    const s = stored();
    expect(await runActivity(s.activities.assessRestore, s.ref)).toMatchObject({ found: true, timeoutSeconds: 600, checkpointRef: 'my-gpu-checkpoint' });
    const invalid = stored((spec) => ({ ...spec, checkpointImage: 'img' }));
    expect(await runActivity(invalid.activities.assessRestore, invalid.ref)).toMatchObject({ invalid: expect.any(String) });
    expect(invalid.recorder.reasons()).toEqual(['InvalidSpec']);
  });
});

describe('resolveRestoreSource', () => {
  it('a checkpoint not there yet, or not completed, is a wait; a failed one fails the restore', async () => {
    const s = stored();
    expect(await runActivity(s.activities.resolveRestoreSource, s.ref)).toMatchObject({ ready: false, failed: false, reason: 'CheckpointNotFound' });
    s.checkpoint({ status: { phase: 'Checkpointing' } });
    expect(await runActivity(s.activities.resolveRestoreSource, s.ref)).toMatchObject({ ready: false, failed: false, reason: 'CheckpointNotCompleted' });
    s.checkpoint({ status: { phase: 'Failed', message: 'criu' } });
    expect(await runActivity(s.activities.resolveRestoreSource, s.ref)).toEqual({ ready: false, failed: true, reason: 'CheckpointFailed', message: 'KybernateCheckpoint my-gpu-checkpoint failed: criu' });
  });

  it('a completed checkpoint kept on its node gives the image, the pod it came from and that node', async () => {
    const s = stored();
    s.checkpoint({ status: { phase: 'Completed', checkpointRef: 'containerd.io/checkpoint/abc:1', nodeName: 'gpu-node-1' } });
    expect(await runActivity(s.activities.resolveRestoreSource, s.ref)).toEqual({ ready: true, checkpointImage: 'containerd.io/checkpoint/abc:1', podName: 'gpu-inference', containerName: 'model', nodeName: 'gpu-node-1' });
  });
});

describe('applyRestorePod', () => {
  it("creates the restore pod from the checkpointed pod's spec, and reports it", async () => {
    const s = stored();
    s.objects.put(podResource(NS, 'gpu-inference'), runningPod('gpu-inference'));
    const state = await runActivity(s.activities.applyRestorePod, s.ref, { ready: true, checkpointImage: 'img', podName: 'gpu-inference', containerName: 'model' });
    expect(state).toMatchObject({ podName: 'gpu-inference-restored', ready: false });
    expect(s.objects.at(podResource(NS, 'gpu-inference-restored'))).toBeDefined();
  });

  it("a pod of that name that is not the restore's is never taken over", async () => {
    const s = stored();
    s.objects.put(podResource(NS, 'gpu-inference-restored'), runningPod('gpu-inference-restored', { owner: 'someone-else' }));
    expect(await runActivity(s.activities.applyRestorePod, s.ref, { ready: true, checkpointImage: 'img' })).toMatchObject({ ready: false, reason: 'PodExists' });
  });

  it('an API server outage is retried', async () => {
    const s = stored();
    s.objects.failNext('get', kubeStatusError(503, 'ServiceUnavailable'), 'pods');
    await expect(runActivity(s.activities.applyRestorePod, s.ref, { ready: true, checkpointImage: 'img' })).rejects.toMatchObject({ type: 'KubeUnavailable', nonRetryable: false });
  });
});

describe('writeRestoreStatus', () => {
  it('writes its fields with Ready', async () => {
    const s = stored();
    const status: RestoreStatusInput = { phase: 'Restoring', message: 'creating', ready: { status: 'False', reason: 'Restoring', message: 'creating' } };
    await runActivity(s.activities.writeRestoreStatus, s.ref, status);
    expect(s.stored()?.status).toMatchObject({ phase: 'Restoring', conditions: [{ type: 'Ready', status: 'False', reason: 'Restoring' }] });
  });
});
