import { describe, expect, it } from 'vitest';
import type { KybernateWorkload } from '../../api/kybernate/types.ts';
import { validateKybernateWorkload } from '../../api/kybernate/validate.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import type { WorkloadStatusInput } from '../../contract/kybernate-workload-activities.ts';
import { kubeStatusError, noCluster } from '../testing/fake-kube.ts';
import { NS, runningPod, storedExample } from '../testing/kybernate.ts';
import { runActivity } from '../testing/run-activity.ts';
import { idleModeOf } from './assess-workload.ts';
import { createWorkloadActivities } from './create-workload-activities.ts';
import { KYBERNATE_CHECKPOINT, KYBERNATE_WORKLOAD } from './kinds.ts';
import { podResource } from './kybernate-clients.ts';
import { lastSuspendNumber, suspendCheckpoint, wantsGpu } from './suspend-checkpoint.ts';

function workload(spec: Record<string, unknown> = {}): KybernateWorkload {
  const result = validateKybernateWorkload({
    apiVersion: 'kybernate.io/v1alpha1',
    kind: 'KybernateWorkload',
    metadata: { name: 'llm', namespace: 'team-a', uid: 'u-1' },
    spec: { template: { spec: { containers: [{ name: 'model', image: 'my-llm:v1' }] } }, ...spec },
  });
  if (!result.valid) throw new Error(result.message);
  return { ...result.workload, metadata: { ...result.workload.metadata, uid: 'u-1' } };
}

describe('idleModeOf', () => {
  it('checkpoints when suspend is enabled (the default), goes cold with scaleToZero alone, else never', () => {
    expect(idleModeOf(workload().spec)).toBe('checkpoint');
    expect(idleModeOf(workload({ suspend: { enabled: false }, scaleToZero: { enabled: true } }).spec)).toBe('cold');
    expect(idleModeOf(workload({ suspend: { enabled: false }, scaleToZero: { enabled: true, minReplicas: 1 } }).spec)).toBe('never');
    expect(idleModeOf(workload({ suspend: { enabled: false } }).spec)).toBe('never');
  });
});

describe('suspendCheckpoint', () => {
  it('checkpoints the workload pod, the task exiting with the dump, owned and labelled by the workload, in its storage', () => {
    const w = workload({ suspend: { storage: { type: 'registry', image: 'registry.example.com/cp/llm:1' } } });
    expect(suspendCheckpoint(w, 'llm-suspend-3', 'llm')).toEqual({
      apiVersion: 'kybernate.io/v1alpha1',
      kind: 'KybernateCheckpoint',
      metadata: {
        name: 'llm-suspend-3',
        namespace: 'team-a',
        labels: { 'kybernate.io/workload': 'llm' },
        ownerReferences: [{ apiVersion: 'kybernate.io/v1alpha1', kind: 'KybernateWorkload', name: 'llm', uid: 'u-1', controller: true, blockOwnerDeletion: true }],
      },
      spec: { podName: 'llm', leaveRunning: false, timeout: 300, storage: { type: 'registry', image: 'registry.example.com/cp/llm:1' }, gpu: { enabled: false } },
    });
  });

  it('asks for the GPU plugin when a container requests an NVIDIA GPU', () => {
    expect(wantsGpu({ spec: { containers: [{ name: 'm', resources: { limits: { 'nvidia.com/gpu': '1' } } }] } })).toBe(true);
    expect(wantsGpu({ spec: { containers: [{ name: 'm', resources: { requests: { cpu: '1' } } }] } })).toBe(false);
    expect(wantsGpu({})).toBe(false);
  });
});

describe('lastSuspendNumber', () => {
  it('is the highest n of <workload>-suspend-<n>, ignoring other names', () => {
    const cps = ['llm-suspend-2', 'llm-suspend-10', 'llm-suspend-x', 'other-suspend-50', 'llm-suspend-'].map((name) => ({ metadata: { name } }) as AnyObject);
    expect(lastSuspendNumber(cps, 'llm')).toBe(10);
    expect(lastSuspendNumber([], 'llm')).toBe(0);
  });
});

const pods = (name: string) => podResource(NS, name);
const checkpointResource = (name: string) => ({ group: KYBERNATE_CHECKPOINT.group, version: KYBERNATE_CHECKPOINT.version, plural: KYBERNATE_CHECKPOINT.plural, namespace: NS, name });

/** The example workload as stored, and its activities over the fakes. */
function stored(edit?: (spec: Record<string, unknown>) => object, metadata?: object) {
  const s = storedExample(KYBERNATE_WORKLOAD, 'kybernate-workload.yaml', edit, metadata);
  return { ...s, activities: createWorkloadActivities({ kc: noCluster() }, { objects: s.objects, recorder: s.recorder }) };
}

/** A suspend checkpoint of the workload as stored, owned by it unless said otherwise. */
function suspendOf(s: ReturnType<typeof stored>, n: number, owner = 'u-1', status: object = {}): AnyObject {
  return s.objects.put(checkpointResource(`llm-inference-suspend-${n}`), {
    metadata: { labels: { [WORKLOAD_LABEL]: 'llm-inference' }, ownerReferences: [{ apiVersion: 'kybernate.io/v1alpha1', kind: 'KybernateWorkload', name: 'llm-inference', uid: owner, controller: true }] },
    spec: { podName: 'llm-inference', storage: { type: 'containerd' }, timeout: 120 },
    status,
  });
}

describe('assessWorkload', () => {
  it('its pod name, idle mode and idle timeout; with `earlier`, the highest suspend number among its own checkpoints', async () => {
    const s = stored();
    suspendOf(s, 3);
    suspendOf(s, 9, 'someone-else');
    expect(await runActivity(s.activities.assessWorkload, s.ref, { earlier: true })).toMatchObject({
      found: true,
      podName: 'llm-inference',
      idleMode: 'checkpoint',
      idleTimeoutMs: 300_000,
      earlier: { suspendedCheckpoints: 0, lastSuspend: 3 },
    });
  });

  it('an invalid workload is refused with an event', async () => {
    const s = stored((spec) => ({ ...spec, suspend: { idleTimeout: 'soon' } }));
    expect(await runActivity(s.activities.assessWorkload, s.ref)).toMatchObject({ invalid: expect.stringContaining('idleTimeout') });
    expect(s.recorder.reasons()).toEqual(['InvalidSpec']);
  });
});

describe('applyWorkloadPod', () => {
  it('creates the pod (restored when asked) with an event, and reports its state', async () => {
    const s = stored();
    expect(await runActivity(s.activities.applyWorkloadPod, s.ref, { restoreFrom: 'cp-image', nodeName: 'node-2' })).toMatchObject({ podName: 'llm-inference', created: true, ready: false, restoreFrom: 'cp-image' });
    expect(s.recorder.reasons()).toEqual(['Restoring']);
    expect(JSON.stringify(s.objects.at(pods('llm-inference'))?.spec)).toContain('"values":["node-2"]');
  });

  it("a pod of that name that is not the workload's is never taken over", async () => {
    const s = stored();
    s.objects.put(pods('llm-inference'), runningPod('llm-inference', { owner: 'someone-else' }));
    expect(await runActivity(s.activities.applyWorkloadPod, s.ref, {})).toMatchObject({ ready: false, reason: 'PodExists' });
    expect(s.objects.calls.filter((c) => c.startsWith('apply'))).toEqual([]);
  });

  it('its own running pod is ready', async () => {
    const s = stored();
    s.objects.put(pods('llm-inference'), runningPod('llm-inference', { owner: 'u-1' }));
    expect(await runActivity(s.activities.applyWorkloadPod, s.ref, {})).toMatchObject({ ready: true, phase: 'Running' });
  });
});

describe('deleteWorkloadPod', () => {
  it("deletes its own pod (read first when no uid is known) and leaves another's alone", async () => {
    const s = stored();
    s.objects.put(pods('llm-inference'), runningPod('llm-inference', { owner: 'someone-else' }));
    expect(await runActivity(s.activities.deleteWorkloadPod, s.ref, { podName: 'llm-inference' })).toBe('absent');
    s.objects.put(pods('llm-inference'), runningPod('llm-inference', { owner: 'u-1' }));
    expect(await runActivity(s.activities.deleteWorkloadPod, s.ref, { podName: 'llm-inference' })).toBe('gone');
    expect(s.recorder.reasons()).toEqual(['PodDeleted']);
  });
});

describe('applySuspendCheckpoint', () => {
  it('creates the checkpoint once, with an event; then reports its progress', async () => {
    const s = stored();
    expect(await runActivity(s.activities.applySuspendCheckpoint, s.ref, { name: 'llm-inference-suspend-1', podName: 'llm-inference' })).toEqual({ foreign: false, timeoutSeconds: 300, created: true });
    expect(s.recorder.reasons()).toEqual(['Suspending']);
    suspendOf(s, 1, 'u-1', { phase: 'Completed', checkpointRef: 'img', nodeName: 'node-1' });
    expect(await runActivity(s.activities.applySuspendCheckpoint, s.ref, { name: 'llm-inference-suspend-1', podName: 'llm-inference' })).toEqual({
      foreign: false,
      nodeName: 'node-1',
      timeoutSeconds: 120,
      phase: 'Completed',
      checkpointRef: 'img',
    });
  });

  it("one of that name that is not the workload's is foreign", async () => {
    const s = stored();
    suspendOf(s, 1, 'someone-else');
    expect(await runActivity(s.activities.applySuspendCheckpoint, s.ref, { name: 'llm-inference-suspend-1', podName: 'llm-inference' })).toMatchObject({ foreign: true });
  });
});

describe('pruneSuspendCheckpoints', () => {
  it("deletes its own checkpoints but those kept, never another's", async () => {
    const s = stored();
    suspendOf(s, 1);
    suspendOf(s, 2);
    suspendOf(s, 3, 'someone-else');
    expect(await runActivity(s.activities.pruneSuspendCheckpoints, s.ref, ['llm-inference-suspend-2'])).toBe(1);
    expect(s.objects.at(checkpointResource('llm-inference-suspend-1'))).toBeUndefined();
    expect(s.objects.at(checkpointResource('llm-inference-suspend-3'))).toBeDefined();
  });

  it('a refused delete fails with its type', async () => {
    const s = stored();
    suspendOf(s, 1);
    s.objects.failNext('remove', kubeStatusError(403, 'Forbidden'));
    await expect(runActivity(s.activities.pruneSuspendCheckpoints, s.ref, [])).rejects.toMatchObject({ type: 'KubeForbidden', nonRetryable: true });
  });
});

describe('writeWorkloadStatus', () => {
  it('writes its fields with Ready and SuspendDegraded; nothing for a workload gone', async () => {
    const s = stored();
    const status: WorkloadStatusInput = {
      phase: 'Running',
      message: 'serving',
      activeReplicas: 1,
      suspendedCheckpoints: 0,
      ready: { status: 'True', reason: 'PodReady', message: 'ok' },
      degraded: { status: 'False', reason: 'CheckpointSucceeded', message: '' },
    };
    await runActivity(s.activities.writeWorkloadStatus, s.ref, status);
    expect(s.stored()?.status).toMatchObject({ phase: 'Running', activeReplicas: 1, conditions: [{ type: 'Ready', status: 'True' }, { type: 'SuspendDegraded', status: 'False' }] });
    await runActivity(s.activities.writeWorkloadStatus, { ...s.ref, uid: 'u-2' }, status);
    expect(s.objects.calls.filter((c) => c.startsWith('applyStatus'))).toHaveLength(1);
  });
});
