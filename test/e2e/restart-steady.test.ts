// A restart changes nothing a user can see on a steady deployment: Running deployments of each provider
// stay Running, as every status write the API server reports (a watch, not a poll) shows, across
// (1) the controller killed with SIGKILL and started again, and (2) the simulated upstream operators
// stopped and started again (what `npm run dev` restarts along with the controller). Before, both
// flapped every deployment Running → Deploying → Running (issue 26 item 8).
import type { ChildProcess } from 'node:child_process';
import type { KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { RESTORE_LABEL, WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { resilientInformer } from '../../kube/informer.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { createDeployment, example, phaseIs, waitForDeployment } from '../support/deployments.ts';
import { killHard, stackProcessOptions, startProcess } from '../support/crash-harness.ts';
import { kubeConfig, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';

const DEPLOYMENTS = [
  { file: 'gpu-vllm-dynamo.yaml', provider: 'dynamo' },
  { file: 'cpu-gguf-kaito.yaml', provider: 'kaito' },
  { file: 'gpu-vllm-dynamo.yaml', provider: 'kuberay' },
] as const;

describe('a restart of a steady stack', () => {
  let kube: TestKube;
  let controller: ChildProcess | undefined;
  let simulators: Simulator[] = [];
  let stopWatch: (() => Promise<void>) | undefined;
  const taskQueuePrefix = uniqueName('steady');
  const names = DEPLOYMENTS.map((d) => uniqueName(d.provider));
  /** Every phase each deployment's status was written with, in order, as the watch delivered them. */
  const phases = new Map<string, string[]>();
  /** Every resourceVersion the watch delivered per deployment: a write of any kind bumps it. */
  const writes = new Map<string, number>();

  const startController = () => startProcess({ ...stackProcessOptions([kube.namespace], taskQueuePrefix), core: true, watcher: true, providers: true, simulators: false });
  const startSimulators = async () => {
    const kc = kubeConfig();
    simulators = [
      ...(await Promise.all(UPSTREAM_SCRIPTS.map((s) => startSimulator(kc, s, { readyAfterMs: 1_000 })))),
      ...(await Promise.all([undefined, RESTORE_LABEL, WORKLOAD_LABEL].map((labelSelector) => startPodReadinessSimulator(kc, { readyAfterMs: 1_000, namespaces: [kube.namespace], ...(labelSelector ? { labelSelector } : {}) })))),
    ];
  };
  const stopSimulators = async () => {
    await Promise.all(simulators.map((s) => s.stop()));
    simulators = [];
  };
  /** The phases each deployment was written with since `mark`. */
  const seenSince = (mark: Map<string, number>) => names.map((n) => ({ name: n, phases: (phases.get(n) ?? []).slice(mark.get(n) ?? 0) }));
  const mark = () => new Map(names.map((n) => [n, phases.get(n)?.length ?? 0]));

  beforeAll(async () => {
    kube = await testKube('e2e-steady');
    const objects = new CustomObjects(kubeConfig());
    const ref = { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: kube.namespace };
    const watch = resilientInformer<KubernetesObject>(kubeConfig(), `/apis/${GROUP}/${VERSION}/namespaces/${kube.namespace}/${MODEL_DEPLOYMENT_PLURAL}`, async () => (await objects.listRaw(ref)) as never);
    const record = (o: KubernetesObject) => {
      const md = o as unknown as ModelDeployment;
      const name = md.metadata.name!;
      phases.set(name, [...(phases.get(name) ?? []), md.status?.phase ?? '<none>']);
      writes.set(name, (writes.get(name) ?? 0) + 1);
    };
    watch.informer.on('add', record);
    watch.informer.on('update', record);
    await watch.start();
    stopWatch = () => watch.stop();
    await startSimulators();
    controller = await startController();
    for (const [i, d] of DEPLOYMENTS.entries()) {
      await createDeployment(
        example(d.file, kube.namespace, (m) => {
          m.metadata.name = names[i];
          if (d.provider === 'kuberay') m.spec.provider = { name: 'kuberay' };
        }),
      );
    }
    for (const name of names) await waitForDeployment(kube.namespace, name, 'Running', phaseIs('Running'), 90_000);
  });
  afterAll(async () => {
    await killHard(controller);
    await stopSimulators();
    await stopWatch?.();
    await kube?.cleanup();
  });

  /** After a restart, long enough for the restarted parts to look at every deployment (their first passes and the operators' first look). */
  const settle = () => new Promise((r) => setTimeout(r, 8_000));

  /** Whether `name`'s workflow ran an activity (a pass: it reads the object first) after `since`. */
  const passedSince = async (name: string, since: number) => {
    const md = (await new CustomObjects(kubeConfig()).get({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: kube.namespace, name })) as unknown as ModelDeployment;
    const { client, connection } = await temporalClient();
    try {
      const history = await client.workflow.getHandle(workflowIdFor('ModelDeployment', { namespace: kube.namespace, name, uid: md.metadata.uid! })).fetchHistory();
      return (history.events ?? []).some((e) => Number(e.eventTime?.seconds ?? 0) * 1000 >= since && (e.markerRecordedEventAttributes || e.activityTaskScheduledEventAttributes));
    } finally {
      await connection.close();
    }
  };

  /**
   * Waits (bounded) until every deployment's workflow ran a pass after `since`. After a SIGKILL the
   * workflows' next tasks first wait out the dead worker's sticky queue (Temporal's schedule-to-start
   * timeout for it, 10 s by default) before the new worker gets them, so a fixed pause would race it.
   */
  const passesAfter = async (since: number) => {
    const deadline = Date.now() + 60_000;
    const pending = new Set(names);
    while (pending.size > 0 && Date.now() < deadline) {
      for (const name of [...pending]) if (await passedSince(name, since)) pending.delete(name);
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 1_000));
    }
    return names.map((name) => ({ name, passed: !pending.has(name) }));
  };

  it('keeps every deployment Running across a controller killed and started again', async () => {
    const before = mark();
    await killHard(controller);
    const restartedAt = Math.floor(Date.now() / 1000) * 1000;
    controller = await startController();
    // Not a restart that looked at nothing: the watcher woke every deployment's workflow, which ran a pass.
    for (const { name, passed } of await passesAfter(restartedAt)) expect(passed, `${name}: a pass after the restart`).toBe(true);
    await settle();
    for (const { name, phases: seen } of seenSince(before)) expect(seen.every((p) => p === 'Running'), `${name}: ${seen.join(' → ')}`).toBe(true);
  });

  it('keeps every deployment Running across a controller stopped with SIGTERM (providers say not ready first) and started again', async () => {
    const before = mark();
    const exited = new Promise((resolve) => controller!.once('exit', resolve));
    process.kill(-controller!.pid!, 'SIGTERM');
    await exited;
    const restartedAt = Math.floor(Date.now() / 1000) * 1000;
    controller = await startController();
    // Not a restart that looked at nothing: the watcher woke every deployment's workflow, which ran a pass.
    for (const { name, passed } of await passesAfter(restartedAt)) expect(passed, `${name}: a pass after the restart`).toBe(true);
    await settle();
    for (const { name, phases: seen } of seenSince(before)) expect(seen.every((p) => p === 'Running'), `${name}: ${seen.join(' → ')}`).toBe(true);
  });

  it('keeps every deployment Running across the simulated operators stopped and started again', async () => {
    const before = mark();
    await stopSimulators();
    await startSimulators();
    await settle();
    for (const { name, phases: seen } of seenSince(before)) expect(seen.every((p) => p === 'Running'), `${name}: ${seen.join(' → ')}`).toBe(true);
    // And the restarted operators still work: a new deployment goes through Deploying to Running.
    const fresh = uniqueName('fresh');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = fresh)));
    await waitForDeployment(kube.namespace, fresh, 'Running', phaseIs('Running'), 90_000);
    expect(phases.get(fresh)).toContain('Deploying');
  });
});
