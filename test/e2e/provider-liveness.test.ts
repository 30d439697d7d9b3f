// A provider worker killed outright (no "not ready" on its way out) is shown not ready once its
// heartbeat is older than the core's bound, with the reason in its `Ready` condition, in the READY
// column `kubectl get inferenceproviderconfigs` prints, and ready again as soon as a worker reports.
// Real stack: the core in this process, the built-in providers' workers in a child process killed with
// SIGKILL and started again.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, CONTROLLER_FIELD_MANAGER, PROVIDER_CONFIG_KIND, PROVIDER_CONFIGS } from '../../api/constants.ts';
import type { InferenceProviderConfig } from '../../api/types.ts';
import { CustomObjects, objectPath } from '../../kube/custom-objects.ts';
import { KubeRest } from '../../kube/rest.ts';
import { startController, type Controller } from '../../worker/controller.ts';
import { killHard, stackProcessOptions, startProcess } from '../support/crash-harness.ts';
import { TEST_SETTINGS, workflowBundle } from '../support/controller.ts';
import { eventually, kubeConfig, stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';

const STALE_AFTER_MS = 4_000;
const PROVIDER = 'kaito';
const ref = { ...PROVIDER_CONFIGS, name: PROVIDER };

describe('provider liveness', () => {
  let kube: TestKube;
  let core: Controller | undefined;
  let providers: ChildProcess | undefined;
  const taskQueuePrefix = uniqueName('liveness');
  const objects = new CustomObjects(kubeConfig());
  const read = async () => (await objects.get(ref)) as unknown as InferenceProviderConfig;
  const readyCondition = (c: InferenceProviderConfig) => c.status?.conditions?.find((x) => x.type === 'Ready');
  /** The READY cell of `kubectl get inferenceproviderconfig kaito` (the API server's table, which kubectl prints). */
  const readyColumn = async () => {
    const table = await new KubeRest(kubeConfig()).request<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }>('GET', objectPath(ref), {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    return table.rows[0]!.cells[table.columnDefinitions.findIndex((c) => c.name === 'Ready')];
  };
  const startProviders = () => startProcess({ ...stackProcessOptions([kube.namespace], taskQueuePrefix), core: false, watcher: false, providers: true, simulators: false });

  beforeAll(async () => {
    kube = await testKube('e2e-liveness');
    core = await startController({
      kc: kubeConfig(),
      temporalAddress: stackInfo().temporalAddress,
      temporalNamespace: stackInfo().temporalNamespace,
      core: true,
      watcher: false,
      providers: [],
      namespaces: [kube.namespace],
      settings: { ...TEST_SETTINGS, taskQueuePrefix },
      workflowBundle: await workflowBundle(),
      providerStaleAfterMs: STALE_AFTER_MS,
    });
    providers = await startProviders();
  });
  afterAll(async () => {
    await killHard(providers);
    await core?.stop();
    await kube?.cleanup();
  });

  it('turns READY false with HeartbeatStale after a killed worker\'s heartbeat ages past the bound, writes it once, and turns true when a worker reports again', async () => {
    const startedAt = Date.now();
    await eventually('the worker to report', async () => (await read()).status?.ready === true && readyCondition(await read())?.reason === 'WorkerHeartbeating' && Date.parse((await read()).status!.lastHeartbeat!) >= startedAt - 1_000);
    expect(readyCondition(await read())).toMatchObject({ status: 'True', message: "The provider's worker is running and reports every 2s" });

    // A heartbeat every 2 s keeps it ready across more than one bound: never marked stale meanwhile.
    const watchedUntil = Date.now() + STALE_AFTER_MS + 2_000;
    while (Date.now() < watchedUntil) {
      expect((await read()).status?.ready).toBe(true);
      await new Promise((r) => setTimeout(r, 250));
    }

    // The core's other condition on the config (its own field manager) must survive both writes.
    const rulesValid = { type: 'RulesValid', status: 'True', reason: 'RulesEvaluated', message: 'liveness test', lastTransitionTime: '2026-11-27T00:00:00Z' };
    await objects.applyStatus(ref, { apiVersion: API_VERSION, kind: PROVIDER_CONFIG_KIND, metadata: { name: PROVIDER }, status: { conditions: [rulesValid] } }, CONTROLLER_FIELD_MANAGER);

    await killHard(providers);
    const killedAt = Date.now();
    const stale = await eventually('the config to be marked not ready', async () => ((await read()).status?.ready === false ? read() : undefined), 30_000);
    // Last heartbeat ≤ 2 s before the kill, then the bound, then at most one 1 s check interval.
    expect(Date.now() - killedAt).toBeLessThan(STALE_AFTER_MS + 2_000 + 1_000 + 2_000);
    expect(readyCondition(stale)).toMatchObject({
      status: 'False',
      reason: 'HeartbeatStale',
      message: expect.stringContaining(`No heartbeat from the provider's worker since ${stale.status!.lastHeartbeat} (more than 4s)`),
    });
    expect(await readyColumn()).toBe(false);
    expect(stale.status?.conditions?.find((c) => c.type === 'RulesValid')).toEqual(rulesValid);

    // Written once: nothing rewrites a config that already says not ready.
    const version = stale.metadata.resourceVersion;
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await read()).metadata.resourceVersion).toBe(version);

    const restartedAt = Date.now();
    providers = await startProviders();
    const back = await eventually('the config to be ready again', async () => ((await read()).status?.ready === true ? read() : undefined), 30_000);
    expect(readyCondition(back)).toMatchObject({ status: 'True', reason: 'WorkerHeartbeating' });
    expect(Date.parse(readyCondition(back)!.lastTransitionTime!)).toBeGreaterThanOrEqual(Math.floor(restartedAt / 1000) * 1000);
    expect(await readyColumn()).toBe(true);
    expect(back.status?.conditions?.find((c) => c.type === 'RulesValid')).toEqual(rulesValid);
    // Gone again: an apply with nothing in it drops what the manager owned.
    await objects.applyStatus(ref, { apiVersion: API_VERSION, kind: PROVIDER_CONFIG_KIND, metadata: { name: PROVIDER }, status: {} }, CONTROLLER_FIELD_MANAGER);
  });
});
