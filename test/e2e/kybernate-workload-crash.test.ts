// A KybernateWorkload survives its controller being killed (SIGKILL) at each step of a suspend and a
// wake (issue 13, "a worker SIGKILLed at every step never double-checkpoints or leaks a pod"): the
// controller (workers and watcher) runs in its own process and is killed the moment the suspend's
// checkpoint is created, the moment the idle pod is deleted, and the moment the wake's pod is created,
// then started again each time. The durable idle timer and the suspend carry on where they were: one
// checkpoint for the one suspend, the pod deleted once, one new pod for the wake, none left over. The
// stand-in kubelet runs in the test process (a kubelet does not die with the operator).
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUSPEND_DEGRADED_CONDITION, WORKLOAD_KIND, WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import type { Simulator } from '../../devstack/simulators/simulator.ts';
import { wakeSignal } from '../../workflows/kybernate/workload-signals.ts';
import { killHard, stackProcessOptions, startProcess, WHOLE_CONTROLLER } from '../support/crash-harness.ts';
import { kubeConfig, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { createWorkload, waitForWorkload, watchWorkloadChildren, workloadCheckpoints, workloadCondition, workloadPods } from '../support/kybernate-workload.ts';

describe('KybernateWorkload crash recovery', () => {
  let kube: TestKube;
  let controller: ChildProcess | undefined;
  let kubelet: Simulator | undefined;
  let client: Client;
  let closeClient: () => Promise<void>;
  const taskQueuePrefix = uniqueName('kwl-crash');
  const startController = () => startProcess({ ...stackProcessOptions([kube.namespace], taskQueuePrefix), ...WHOLE_CONTROLLER }, 90_000);

  beforeAll(async () => {
    kube = await testKube('e2e-kwl-crash');
    kubelet = await startPodReadinessSimulator(kubeConfig(), { readyAfterMs: 1_000, namespaces: [kube.namespace], labelSelector: WORKLOAD_LABEL });
    controller = await startController();
    const t = await temporalClient();
    client = t.client;
    closeClient = () => t.connection.close();
  });
  afterAll(async () => {
    await killHard(controller);
    await kubelet?.stop();
    await closeClient?.();
    await kube?.cleanup();
  });

  it('killed when the checkpoint is created, when the idle pod is deleted and when the wake creates its pod: one checkpoint, no pod leaked or doubled', async () => {
    const ns = kube.namespace;
    const name = uniqueName('kwl');
    let killed: Promise<void> | undefined;
    const killNow = () => (killed ??= killHard(controller));
    const pods = await watchWorkloadChildren(ns, name, 'pods');
    const checkpoints = await watchWorkloadChildren(ns, name, 'checkpoints', (e) => {
      if (e.type === 'ADDED') killNow();
    });
    try {
      const created = await createWorkload(ns, name, { port: 8080, idleTimeout: '3s', queueTimeout: '10s' });
      await waitForWorkload(ns, name, 'Running', (w) => w.status?.phase === 'Running');
      const [firstPod] = pods.added();

      // Kill 1: the suspend's checkpoint was just created.
      await waitForWorkload(ns, name, 'its suspend checkpoint (then the kill)', () => killed !== undefined, 60_000);
      await killed;
      killed = undefined;
      // Kill 2: the idle pod deleted (before the workflow could record it and write Suspended).
      const podDeleted = setInterval(() => {
        if (pods.deleted().length > 0) killNow();
      }, 10);
      controller = await startController();
      await waitForWorkload(ns, name, 'the pod deleted (then the kill)', () => killed !== undefined, 90_000);
      clearInterval(podDeleted);
      await killed;
      killed = undefined;
      controller = await startController();
      const suspended = await waitForWorkload(ns, name, 'Suspended after the restarts', (w) => w.status?.phase === 'Suspended', 90_000);
      if (pods.deleted().length !== 1) {
        const history = await client.workflow.getHandle(workflowIdFor(WORKLOAD_KIND, { namespace: ns, name, uid: created.metadata.uid! })).fetchHistory();
        console.log(JSON.stringify(pods.events.map((e) => [e.type, e.uid, (e.object.metadata as { creationTimestamp?: string })?.creationTimestamp, (e.object.status as { phase?: string })?.phase])));
        console.log(JSON.stringify(checkpoints.events.map((e) => [e.type, e.uid, (e.object.status as { phase?: string })?.phase])));
        console.log(JSON.stringify((history.events ?? []).map((e) => [String(e.eventId), e.eventType, e.eventTime?.seconds?.toString(), JSON.stringify(e.markerRecordedEventAttributes?.details ?? e.workflowExecutionSignaledEventAttributes?.signalName ?? '').slice(0, 300)])));
      }
      expect(workloadCondition(suspended, SUSPEND_DEGRADED_CONDITION)).toMatchObject({ status: 'True', reason: 'CheckpointFailed' });
      expect(suspended.status?.suspendedCheckpoints).toBe(0);
      expect(checkpoints.added()).toHaveLength(1);
      expect((await workloadCheckpoints(ns, name)).map((c) => c.metadata.name)).toEqual([`${name}-suspend-1`]);
      expect(pods.deleted()).toEqual([firstPod]);
      expect(await workloadPods(ns, name)).toEqual([]);

      // Kill 3: the wake's pod was just created.
      const podAdded = setInterval(() => {
        if (pods.added().length > 1) killNow();
      }, 10);
      const workflowId = workflowIdFor(WORKLOAD_KIND, { namespace: ns, name, uid: created.metadata.uid! });
      await client.workflow.getHandle(workflowId).signal(wakeSignal, { reason: 'test' });
      await waitForWorkload(ns, name, 'the wake pod created (then the kill)', () => killed !== undefined, 60_000);
      clearInterval(podAdded);
      await killed;
      controller = await startController();
      const running = await waitForWorkload(ns, name, 'Running after the wake and the restart', (w) => w.status?.phase === 'Running', 90_000);
      const now = await workloadPods(ns, name);
      expect(now.map((p) => p.metadata?.uid)).toEqual([pods.added()[1]]);
      expect(running.status?.podName).toBe(name);
      // Two pods ever (the first, the wake's), one deletion, one checkpoint.
      expect(pods.added()).toHaveLength(2);
      expect(pods.deleted()).toEqual([firstPod]);
      expect(checkpoints.added()).toHaveLength(1);
    } finally {
      pods.stop();
      checkpoints.stop();
    }
  });
});
