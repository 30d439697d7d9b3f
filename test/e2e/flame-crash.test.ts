// A FlameCluster survives its controller being killed mid-pass (research 3d item 11): the controller
// (workers and watcher) runs in its own process, is killed with SIGKILL as soon as the first pod of a
// new cluster appears, and is started again. The cluster converges to exactly the pods it asks for,
// each created once, all ours. The stand-in kubelet runs in the test process: a kubelet does not die
// with the operator.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAME_CLUSTER_LABEL, POD_INDEX_LABEL } from '../../api/flame/constants.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import type { Simulator } from '../../devstack/simulators/simulator.ts';
import { killHard, stackProcessOptions, startProcess, WHOLE_CONTROLLER } from '../support/crash-harness.ts';
import { kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { allPods, createFlameCluster, flameExample, namesOf, podNames, settled, waitForFlameCluster, watchPods } from '../support/flame.ts';

describe('FlameCluster crash recovery', () => {
  let kube: TestKube;
  let controller: ChildProcess | undefined;
  let kubelet: Simulator | undefined;
  const taskQueuePrefix = uniqueName('flame-crash');
  const startController = () => startProcess({ ...stackProcessOptions([kube.namespace], taskQueuePrefix), ...WHOLE_CONTROLLER });

  beforeAll(async () => {
    kube = await testKube('e2e-flame-crash');
    kubelet = await startPodReadinessSimulator(kubeConfig(), { readyAfterMs: 1_000, namespaces: [kube.namespace] });
    controller = await startController();
  });
  afterAll(async () => {
    await killHard(controller);
    await kubelet?.stop();
    await kube?.cleanup();
  });

  it('converges after the controller is killed mid-pass: exactly the desired pods, each created once, none orphaned', async () => {
    const name = 'crash';
    const replicas = 8;
    let killed: Promise<void> | undefined;
    // Killed from the watch callback, the moment the first pod is created: the pass is still creating the rest.
    const watch = await watchPods(kube.namespace, name, (e) => {
      if (e.type === 'ADDED') killed ??= killHard(controller);
    });
    try {
      await createFlameCluster(flameExample(kube.namespace, name, replicas));
      await waitForFlameCluster(kube.namespace, name, 'its first pod (then the kill)', () => killed !== undefined, 60_000);
      await killed;
      const atKill = watch.added().length;
      controller = await startController();

      const running = await waitForFlameCluster(kube.namespace, name, 'Running after the restart', settled('Running', { sessionManager: 1, executors: replicas }), 150_000);
      // The whole namespace, not only what carries our label: nothing else was made.
      const pods = await allPods(kube.namespace);
      expect(namesOf(pods)).toEqual(podNames(name, replicas));
      for (const pod of pods) {
        expect(pod.metadata?.ownerReferences, pod.metadata?.name).toEqual([
          { apiVersion: 'flame.xflops.io/v1alpha1', kind: 'FlameCluster', name, uid: running.metadata.uid, controller: true, blockOwnerDeletion: true },
        ]);
        expect(pod.metadata?.labels?.[FLAME_CLUSTER_LABEL]).toBe(name);
        expect(pod.metadata?.deletionTimestamp).toBeUndefined();
      }
      const indices = pods.map((p) => p.metadata?.labels?.[POD_INDEX_LABEL]).filter((i) => i !== undefined);
      expect(indices.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: replicas }, (_, i) => i));
      // Each pod was created once and never replaced: the pass that ran again found the ones made before the kill.
      expect([...watch.added()].sort()).toEqual(podNames(name, replicas));
      expect(watch.deleted()).toEqual([]);
      expect(atKill, 'pods seen when the controller died').toBeGreaterThan(0);
      console.log(`flame crash: ${atKill} of ${replicas + 1} pods existed when the controller was killed`);
    } finally {
      watch.stop();
    }
  });
});
