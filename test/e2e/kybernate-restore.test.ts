// KybernateRestore (seed 003, issue 13 item 4) end to end on the real stack, without containerd: the
// checkpoints it restores from are made by hand (paused, their status written as their workflow would),
// and the pod-readiness simulator stands in for the node runtime that would restore the pod. A restore
// from an image or from a completed checkpoint creates its owned, annotated pod and reports Running once
// the pod runs; one whose checkpoint is in progress waits Pending until it completes; one whose
// checkpoint failed fails; deleting a restore lets the garbage collector remove its pod.
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYBERNATE_API_VERSION, RESTORE_FROM_ANNOTATION, RESTORE_KIND, RESTORE_LABEL } from '../../api/kybernate/constants.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { eventually, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { patchCheckpointStatus } from '../support/kybernate.ts';
import { createRestore, deleteRestore, getPod, getRestore, handmadeCheckpoint, plainPod, restoreReady, waitForRestore } from '../support/kybernate-restore.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const image = () => `containerd.io/checkpoint/${uniqueName('ctr')}:20250101T120000.000Z`;

describe('KybernateRestore on the real stack', () => {
  let kube: TestKube;
  let ctl: TestController;
  let client: Client;
  let closeClient: () => Promise<void>;

  beforeAll(async () => {
    kube = await testKube('kyb-restore');
    // A poll interval longer than any test: a restore waiting for its checkpoint goes on when the
    // checkpoint's watch wakes it, not because it looked again.
    ctl = await startTestController({ namespaces: [kube.namespace], providers: [], settings: { pollInterval: '10m' } });
    const t = await temporalClient();
    client = t.client;
    closeClient = () => t.connection.close();
  });

  afterAll(async () => {
    await ctl?.stop();
    await closeClient?.();
    await kube?.cleanup();
  });

  it('restores spec.checkpointImage into an owned, annotated pod, Running once it runs; deleting it lets the garbage collector remove the pod', async () => {
    const name = uniqueName('krs');
    const from = image();
    const created = await createRestore(kube.namespace, name, { checkpointImage: from });
    const podName = `${name}-restored`;

    const restore = await waitForRestore(kube.namespace, name, 'Running', (r) => r.status?.phase === 'Running');
    const pod = (await getPod(kube.namespace, podName))!;
    expect(pod.metadata?.annotations?.[RESTORE_FROM_ANNOTATION]).toBe(from);
    expect(pod.metadata?.labels?.[RESTORE_LABEL]).toBe(name);
    expect(pod.metadata?.ownerReferences).toEqual([{ apiVersion: KYBERNATE_API_VERSION, kind: RESTORE_KIND, name, uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect((pod.spec as { containers: { name: string; image: string }[] }).containers).toMatchObject([{ name: 'restored', image: from }]);
    expect(restore.status).toMatchObject({ restoredPodName: podName, restoredPodUID: pod.metadata?.uid, message: `Pod ${podName} restored from ${from}`, observedGeneration: restore.metadata.generation });
    expect(restore.status?.restoreTime).toMatch(ISO);
    expect(restoreReady(restore)).toMatchObject({ status: 'True', reason: 'Running' });

    await deleteRestore(kube.namespace, name);
    await eventually('the restore to be gone', async () => (await getRestore(kube.namespace, name)) === undefined);
    // Within seconds of the deletion (the watcher's removal signal), not at the next poll or resync (a
    // minute and ten here): a restore has no finalizer, so the removal is the only event it gets.
    const workflowId = workflowIdFor(RESTORE_KIND, { namespace: kube.namespace, name, uid: created.metadata.uid! });
    await eventually('the workflow to end', async () => (await client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED', 15_000);
    await eventually('the garbage collector to remove the pod', async () => (await getPod(kube.namespace, podName)) === undefined, 90_000);
  });

  it('waits Pending while its checkpoint is in progress, and restores from its image, on its node, once it completed', async () => {
    const cp = uniqueName('kcp');
    const from = image();
    const node = uniqueName('node');
    await handmadeCheckpoint(kube.namespace, cp, { phase: 'InProgress', nodeName: node, message: 'Checkpointing' }, 'model');
    const name = uniqueName('krs');
    const podName = uniqueName('restored-pod');
    await createRestore(kube.namespace, name, { checkpointRef: cp, targetPod: { name: podName } });

    const pending = await waitForRestore(kube.namespace, name, 'Pending', (r) => r.status?.phase === 'Pending');
    expect(pending.status?.message).toBe(`KybernateCheckpoint ${cp} is InProgress, not Completed`);
    expect(restoreReady(pending)).toMatchObject({ status: 'False', reason: 'CheckpointNotCompleted' });
    expect(await getPod(kube.namespace, podName)).toBeUndefined();

    await patchCheckpointStatus(kube.namespace, cp, { phase: 'Completed', checkpointRef: from, checkpointSize: '1Mi', message: 'Checkpoint done' });
    const running = await waitForRestore(kube.namespace, name, 'Running', (r) => r.status?.phase === 'Running');
    const pod = (await getPod(kube.namespace, podName))!;
    expect(running.status).toMatchObject({ restoredPodName: podName, restoredPodUID: pod.metadata?.uid });
    expect(pod.metadata?.annotations?.[RESTORE_FROM_ANNOTATION]).toBe(from);
    // The checkpointed pod is gone: one container, named like the checkpointed one, pinned to the checkpoint's node.
    const spec = pod.spec as { containers: { name: string; image: string }[]; affinity?: unknown };
    expect(spec.containers).toMatchObject([{ name: 'model', image: from }]);
    expect(spec.affinity).toEqual({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } });
  });

  it('fails when its checkpoint failed, and creates no pod', async () => {
    const cp = uniqueName('kcp');
    await handmadeCheckpoint(kube.namespace, cp, { phase: 'Failed', message: 'criu failed' });
    const name = uniqueName('krs');
    await createRestore(kube.namespace, name, { checkpointRef: cp });
    const failed = await waitForRestore(kube.namespace, name, 'Failed', (r) => r.status?.phase === 'Failed');
    expect(failed.status?.message).toBe(`KybernateCheckpoint ${cp} failed: criu failed`);
    expect(restoreReady(failed)).toMatchObject({ status: 'False', reason: 'CheckpointFailed' });
    expect(await getPod(kube.namespace, `${name}-restored`)).toBeUndefined();

    // Deleted with no pod (nothing else to wake it) and no finalizer: its workflow still ends within
    // seconds, woken by the watcher's removal signal rather than by its next poll or resync.
    await deleteRestore(kube.namespace, name);
    await eventually('the restore to be gone', async () => (await getRestore(kube.namespace, name)) === undefined);
    const workflowId = workflowIdFor(RESTORE_KIND, { namespace: kube.namespace, name, uid: failed.metadata.uid! });
    await eventually('the workflow to end', async () => (await client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED', 15_000);
  });

  it('never takes over a pod of its name that is not its own: Failed PodExists', async () => {
    const name = uniqueName('krs');
    const podName = `${name}-restored`;
    const theirs = await plainPod(kube.namespace, podName);
    await createRestore(kube.namespace, name, { checkpointImage: image() });
    const failed = await waitForRestore(kube.namespace, name, 'Failed', (r) => r.status?.phase === 'Failed');
    expect(failed.status?.message).toBe(`Pod ${kube.namespace}/${podName} exists and is not this restore's`);
    expect(restoreReady(failed)).toMatchObject({ status: 'False', reason: 'PodExists' });
    expect(failed.status?.restoredPodName).toBeUndefined();
    const pod = await getPod(kube.namespace, podName);
    expect(pod?.metadata?.uid).toBe(theirs.metadata?.uid);
    expect(pod?.metadata?.ownerReferences).toBeUndefined();
    expect(pod?.metadata?.annotations?.[RESTORE_FROM_ANNOTATION]).toBeUndefined();
  });
});
