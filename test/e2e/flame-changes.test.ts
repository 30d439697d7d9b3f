// FlameCluster (seed 004) after the first apply: scaling (UC2), configuration and image changes (UC4)
// and drift repair, on the real stack with the pod-readiness simulator as kubelet (research 3d items 6,
// 7 and 10). Pod identities are followed by uid, and deletions by a pod watch, in the order the API
// server made them.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_FILE_KEY, FLAME_CLUSTER_LABEL } from '../../api/flame/constants.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { eventually, testKube, type TestKube } from '../support/env.ts';
import {
  childrenOf,
  configHashAnnotation,
  configHashOf,
  deleteChild,
  flameExample,
  getChild,
  namesOf,
  patchChild,
  patchFlameCluster,
  podNames,
  runningFlameCluster,
  settled,
  uidsOf,
  waitForFlameCluster,
  waitForPods,
  watchPods,
} from '../support/flame.ts';

const executor = (name: string, i: number) => `${name}-executor-manager-${i}`;
const imageOf = (pod: AnyObject) => (pod.spec as { containers: { image: string }[] }).containers[0]!.image;
const configOf = (cm: AnyObject) => parse((cm.data as Record<string, string>)[CONFIG_FILE_KEY]!) as { executors: { limits: { max_executors: number } } };

describe.concurrent('FlameCluster changes', () => {
  let kube: TestKube;
  let ctl: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-flame-changes');
    ctl = await startTestController({ namespaces: [kube.namespace] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  const scaleTo = (name: string, replicas: number) => patchFlameCluster(kube.namespace, name, { spec: { executorManager: { replicas } } });
  const scaled = (replicas: number) => (fc: FlameCluster) => fc.status?.executorManager?.replicas === replicas;

  it('UC2: scales 3 → 5 → 2 → 0 → 1, adding the missing indices and removing the highest first; the others keep their pods', async () => {
    const name = 'scale';
    const ns = kube.namespace;
    await runningFlameCluster(flameExample(ns, name, 3));
    const watch = await watchPods(ns, name);
    try {
      const three = uidsOf(await childrenOf(ns, name, 'pods'));
      expect(Object.keys(three).sort()).toEqual(podNames(name, 3));

      await scaleTo(name, 5);
      await waitForFlameCluster(ns, name, '5 executors ready', (fc) => settled('Running', { sessionManager: 1, executors: 5 })(fc) && scaled(5)(fc));
      const five = uidsOf(await waitForPods(ns, name, podNames(name, 5), '5 executors'));
      expect(five).toMatchObject(three);
      expect(watch.added()).toEqual([executor(name, 3), executor(name, 4)]);
      expect(watch.deleted()).toEqual([]);

      await scaleTo(name, 2);
      await waitForFlameCluster(ns, name, '2 executors ready', (fc) => settled('Running', { sessionManager: 1, executors: 2 })(fc) && scaled(2)(fc));
      const two = uidsOf(await waitForPods(ns, name, podNames(name, 2), '2 executors'));
      expect(watch.deleted()).toEqual([executor(name, 4), executor(name, 3), executor(name, 2)]);
      expect(two).toEqual({ [executor(name, 0)]: three[executor(name, 0)], [executor(name, 1)]: three[executor(name, 1)], [`${name}-session-manager`]: three[`${name}-session-manager`] });

      // Scale to zero follows the CRD minimum: allowed, the session manager stays, and the state is Pending.
      await scaleTo(name, 0);
      const zero = await waitForFlameCluster(ns, name, 'no executors', (fc) => settled('Pending')(fc) && scaled(0)(fc));
      expect(zero.status).toEqual({
        sessionManager: { ready: 1, endpoint: `http://${name}-session-manager:8080` },
        executorManager: { replicas: 0, ready: 0 },
        state: 'Pending',
        message: 'No executors requested (spec.executorManager.replicas is 0)',
        configGeneration: 1,
        observedGeneration: zero.metadata.generation,
      });
      const alone = uidsOf(await waitForPods(ns, name, [`${name}-session-manager`], 'the session manager alone'));
      expect(alone).toEqual({ [`${name}-session-manager`]: three[`${name}-session-manager`] });
      expect(watch.deleted()).toEqual([4, 3, 2, 1, 0].map((i) => executor(name, i)));
      expect(namesOf(await childrenOf(ns, name, 'services'))).toEqual([`${name}-object-cache`, `${name}-session-manager`]);
      expect(namesOf(await childrenOf(ns, name, 'configmaps'))).toEqual([`${name}-config`]);

      await scaleTo(name, 1);
      await waitForFlameCluster(ns, name, '1 executor ready', (fc) => settled('Running', { sessionManager: 1, executors: 1 })(fc) && scaled(1)(fc));
      const one = uidsOf(await waitForPods(ns, name, podNames(name, 1), '1 executor'));
      expect(one[`${name}-session-manager`]).toBe(three[`${name}-session-manager`]);
      expect(one[executor(name, 0)]).not.toBe(three[executor(name, 0)]);
      // The session manager was never recreated through all of it.
      expect(watch.events.filter((e) => e.name === `${name}-session-manager` && e.type !== 'MODIFIED')).toEqual([]);
    } finally {
      watch.stop();
    }
  });

  it('UC4: a config change rewrites the ConfigMap and recreates every pod; an image change recreates only the pods it concerns', async () => {
    const name = 'config';
    const ns = kube.namespace;
    const sessionManager = `${name}-session-manager`;
    await runningFlameCluster(flameExample(ns, name, 3));
    const original = uidsOf(await childrenOf(ns, name, 'pods'));
    const firstConfig = (await getChild(ns, 'configmaps', `${name}-config`))!;
    expect(configOf(firstConfig).executors.limits.max_executors).toBe(10);

    await patchFlameCluster(ns, name, { spec: { executorManager: { maxExecutors: 20 } } });
    const reconfigured = await waitForFlameCluster(ns, name, 'config generation 2, Running', (fc) => fc.status?.configGeneration === 2 && settled('Running', { sessionManager: 1, executors: 3 })(fc));
    const config = (await getChild(ns, 'configmaps', `${name}-config`))!;
    expect(config.metadata?.uid).toBe(firstConfig.metadata?.uid);
    expect(configOf(config).executors.limits.max_executors).toBe(20);
    const hash = configHashOf(config);
    expect(hash).not.toBe(configHashOf(firstConfig));
    const recreated = await waitForPods(ns, name, podNames(name, 3), 'every pod on the new config', (pods) => pods.every((p) => configHashAnnotation(p) === hash));
    for (const [pod, uid] of Object.entries(uidsOf(recreated))) expect(uid, pod).not.toBe(original[pod]);
    expect(reconfigured.status?.configGeneration).toBe(2);

    const watch = await watchPods(ns, name);
    try {
      // Only the session manager's image: only its pod is replaced; the configuration is the same.
      await patchFlameCluster(ns, name, { spec: { sessionManager: { image: 'xflops/flame-session:v0.1.1' } } });
      const afterSm = await waitForPods(ns, name, podNames(name, 3), 'the new session manager image', (pods) => imageOf(pods.find((p) => p.metadata?.name === sessionManager)!) === 'xflops/flame-session:v0.1.1');
      await waitForFlameCluster(ns, name, 'Running on the new image', settled('Running', { sessionManager: 1, executors: 3 }));
      expect(watch.deleted()).toEqual([sessionManager]);
      const smUids = uidsOf(afterSm);
      expect(smUids[sessionManager]).not.toBe(uidsOf(recreated)[sessionManager]);
      for (let i = 0; i < 3; i++) expect(smUids[executor(name, i)]).toBe(uidsOf(recreated)[executor(name, i)]);
      expect(afterSm.every((p) => configHashAnnotation(p) === hash)).toBe(true);

      // Only the executors' image: every executor is replaced, the session manager is not.
      await patchFlameCluster(ns, name, { spec: { executorManager: { image: 'xflops/flame-executor:v0.1.1' } } });
      const afterEm = await waitForPods(ns, name, podNames(name, 3), 'the new executor image', (pods) => pods.filter((p) => p.metadata?.name !== sessionManager).every((p) => imageOf(p) === 'xflops/flame-executor:v0.1.1'));
      const done = await waitForFlameCluster(ns, name, 'Running on the new image', settled('Running', { sessionManager: 1, executors: 3 }));
      expect([...watch.deleted()].sort()).toEqual([sessionManager, executor(name, 0), executor(name, 1), executor(name, 2)].sort());
      const emUids = uidsOf(afterEm);
      expect(emUids[sessionManager]).toBe(smUids[sessionManager]);
      for (let i = 0; i < 3; i++) expect(emUids[executor(name, i)]).not.toBe(smUids[executor(name, i)]);
      // Images are not part of flame-cluster.yaml: the configuration did not change.
      expect(done.status?.configGeneration).toBe(2);
      expect((await getChild(ns, 'configmaps', `${name}-config`))?.data).toEqual(config.data);

      // The ConfigMap deleted by hand comes back as it was; nothing changed, so no pod is replaced.
      const deletedSoFar = watch.deleted().length;
      await deleteChild(ns, 'configmaps', `${name}-config`);
      const restored = await eventually('the ConfigMap to come back', async () => {
        const cm = await getChild(ns, 'configmaps', `${name}-config`);
        return cm && cm.metadata?.uid !== config.metadata?.uid ? cm : undefined;
      });
      expect(restored.data).toEqual(config.data);
      const after = await waitForFlameCluster(ns, name, 'Running', settled('Running', { sessionManager: 1, executors: 3 }));
      expect(after.status?.configGeneration).toBe(2);
      expect(watch.deleted().length).toBe(deletedSoFar);
    } finally {
      watch.stop();
    }
  });

  it('repairs drift: a deleted pod, an edited Service port or selector, a deleted Service or ConfigMap come back as rendered', async () => {
    const name = 'drift';
    const ns = kube.namespace;
    await runningFlameCluster(flameExample(ns, name, 3));
    const original = uidsOf(await childrenOf(ns, name, 'pods'));

    // A deleted executor pod is recreated under its name; the others are untouched.
    await deleteChild(ns, 'pods', executor(name, 1));
    const pods = uidsOf(await waitForPods(ns, name, podNames(name, 3), 'executor 1 recreated', (p) => uidsOf(p)[executor(name, 1)] !== original[executor(name, 1)]));
    expect(pods).toEqual({ ...original, [executor(name, 1)]: pods[executor(name, 1)] });
    await waitForFlameCluster(ns, name, 'Running', settled('Running', { sessionManager: 1, executors: 3 }));

    const serviceSpec = async (service: string) => (await getChild(ns, 'services', service))?.spec as { ports: object[]; selector: Record<string, string> } | undefined;
    const sessionManagerPorts = [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }];

    // The session manager Service's port changed by someone else: put back.
    await patchChild(ns, 'services', `${name}-session-manager`, { spec: { ports: [{ name: 'http', port: 8081, targetPort: 8080, protocol: 'TCP' }] } });
    await eventually(
      'the session manager port restored',
      async () => isDeepStrictEqual((await serviceSpec(`${name}-session-manager`))?.ports, sessionManagerPorts),
    );

    // The object cache Service's selector pointed elsewhere, with a key of someone else's: put back as rendered.
    const objectCacheSelector = { app: 'flame-executor-manager', [FLAME_CLUSTER_LABEL]: name };
    await patchChild(ns, 'services', `${name}-object-cache`, { spec: { selector: { app: 'flame-session-manager', tier: 'debug' } } });
    await eventually('the object cache selector restored', async () => isDeepStrictEqual((await serviceSpec(`${name}-object-cache`))?.selector, objectCacheSelector));

    // A deleted Service is created again.
    const objectCacheUid = (await getChild(ns, 'services', `${name}-object-cache`))?.metadata?.uid;
    await deleteChild(ns, 'services', `${name}-object-cache`);
    const service = await eventually('the object cache Service to come back', async () => {
      const s = await getChild(ns, 'services', `${name}-object-cache`);
      return s && s.metadata?.uid !== objectCacheUid ? s : undefined;
    });
    expect(service.spec).toMatchObject({ selector: objectCacheSelector, ports: [{ name: 'grpc', port: 9090, targetPort: 9090, protocol: 'TCP' }] });

    // A deleted ConfigMap is created again with the same content; the pods keep running on it.
    const config = (await getChild(ns, 'configmaps', `${name}-config`))!;
    await deleteChild(ns, 'configmaps', `${name}-config`);
    const restored = await eventually('the ConfigMap to come back', async () => {
      const cm = await getChild(ns, 'configmaps', `${name}-config`);
      return cm && cm.metadata?.uid !== config.metadata?.uid ? cm : undefined;
    });
    expect(restored.data).toEqual(config.data);
    expect(restored.metadata?.ownerReferences).toEqual(config.metadata?.ownerReferences);
    const final = await waitForFlameCluster(ns, name, 'Running', settled('Running', { sessionManager: 1, executors: 3 }));
    expect(final.status?.configGeneration).toBe(1);
    expect(uidsOf(await childrenOf(ns, name, 'pods'))).toEqual(pods);
  });
});
