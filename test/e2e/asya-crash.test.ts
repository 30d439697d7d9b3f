// An AsyncActor survives its controller being killed mid-injection (research 1d item 11): the controller
// (workers and watcher) runs in its own process, is killed with SIGKILL while the first pass binds the
// actor, and is started again. The actor converges, and the target holds each Asya container and volume
// exactly once; deleting the actor afterwards still restores the target to its owner's spec.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { killHard, stackProcessOptions, startProcess, WHOLE_CONTROLLER } from '../support/crash-harness.ts';
import { eventually, stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';
import {
  applyAs,
  asyaMarks,
  bindingActor,
  containerNames,
  containersManagedBy,
  createActor,
  deleteActor,
  DEPLOYMENTS,
  getActor,
  getDeployment,
  hasCondition,
  managersOf,
  plainDeployment,
  podTemplate,
  queueDepth,
  volumeNames,
  waitActorGone,
  waitForActor,
} from '../support/asya.ts';

const OWNER = 'the-owner';

/** Each name of `names` once, in order. */
const once = (names: string[]) => names.filter((n, i) => names.indexOf(n) === i);

describe('AsyncActor crash recovery', () => {
  let kube: TestKube;
  let controller: ChildProcess | undefined;
  const taskQueuePrefix = uniqueName('asya-crash');
  const startController = () => startProcess({ ...stackProcessOptions([kube.namespace], taskQueuePrefix), amqpUrl: stackInfo().amqpUrl, ...WHOLE_CONTROLLER });

  beforeAll(async () => {
    kube = await testKube('e2e-asya-crash');
    controller = await startController();
  });
  afterAll(async () => {
    await killHard(controller);
    await kube?.cleanup();
  });

  it('converges after the controller is killed mid-injection, with each Asya container exactly once', async () => {
    const ns = kube.namespace;
    // Killed at two points of the first pass: as soon as it has begun (the finalizer is its first write),
    // and as soon as the injection has reached the target (before the workflow has recorded it).
    const cases = [
      { actor: uniqueName('crash-early'), target: uniqueName('target-early'), begun: async (actor: string): Promise<boolean> => ((await getActor(ns, actor))?.metadata.finalizers?.length ?? 0) > 0 },
      { actor: uniqueName('crash-late'), target: uniqueName('target-late'), begun: async (_actor: string, target: string): Promise<boolean> => (await getDeployment(ns, target))?.metadata?.labels?.['asya.sh/managed-by'] !== undefined },
    ];
    const before = new Map<string, AnyObject>();
    for (const { actor, target, begun } of cases) {
      await applyAs(DEPLOYMENTS, plainDeployment(ns, target), OWNER);
      before.set(target, (await getDeployment(ns, target))!);
      await createActor(bindingActor(ns, actor, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, `http://${target}:80`));
      await eventually(`${actor}: the first pass under way`, () => begun(actor, target), 30_000, 20);
      await killHard(controller);
      controller = await startController();

      const converged = await waitForActor(
        ns,
        actor,
        'injected, with its queues, after the restart',
        (a) => hasCondition('RuntimeInjected', 'True', 'Injected')(a) && hasCondition('TransportReady', 'True', 'QueuesDeclared')(a),
        120_000,
      );
      expect(converged.status).toMatchObject({ mode: 'Binding', runtimeInjected: true, conflictCount: 0, observedGeneration: converged.metadata.generation });
      const injected = (await getDeployment(ns, target))!;
      expect(containerNames(injected)).toEqual(['server', 'asya-runtime', 'asya-sidecar']);
      expect(volumeNames(injected)).toEqual(once(volumeNames(injected)));
      expect(volumeNames(injected)).toEqual(['socket-dir', 'tmp', 'asya-runtime']);
      expect(containersManagedBy(injected, 'asya')).toEqual(['asya-runtime', 'asya-sidecar']);
      expect(managersOf(injected).filter((m) => m.manager === 'asya')).toEqual([{ manager: 'asya', operation: 'Apply' }]);
      expect(await queueDepth(`asya-${actor}`)).toBe(0);
      expect(await queueDepth(`asya-${actor}-dlq`)).toBe(0);
    }

    for (const { actor, target } of cases) {
      await deleteActor(ns, actor);
      await waitActorGone(ns, actor);
      const released = (await getDeployment(ns, target))!;
      expect(podTemplate(released)).toEqual(podTemplate(before.get(target)));
      expect(asyaMarks(released)).toEqual([]);
      expect(await queueDepth(`asya-${actor}`)).toBeUndefined();
    }
  });
});
