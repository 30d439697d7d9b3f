// Surviving crashes: the worker process killed with SIGKILL in the middle of a reconcile, and the
// watcher process killed while a deployment is created, both converge once restarted, with exactly one
// provider resource per deployment and nothing left behind after deletion.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { createDeployment, deleteDeployment, example, getDeployment, phaseIs, UPSTREAM, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { killHard, stackProcessOptions, startProcess } from '../support/crash-harness.ts';

describe('crash recovery', () => {
  let kube: TestKube;
  let workers: ChildProcess | undefined;
  let watcher: ChildProcess | undefined;
  const taskQueuePrefix = uniqueName('crash');
  const base = () => stackProcessOptions([kube.namespace], taskQueuePrefix);
  const startWorkers = () => startProcess({ ...base(), core: true, watcher: false, providers: true, simulators: true });
  const startWatcherProcess = () => startProcess({ ...base(), core: false, watcher: true, providers: false, simulators: false });
  const dgds = async () => new CustomObjects(kubeConfig()).list({ ...UPSTREAM.dgd, namespace: kube.namespace });

  beforeAll(async () => {
    kube = await testKube('e2e-crash');
    workers = await startWorkers();
    watcher = await startWatcherProcess();
  });
  afterAll(async () => {
    await killHard(workers);
    await killHard(watcher);
    await kube?.cleanup();
  });

  it('converges after the worker is killed mid-reconcile, and after the watcher is killed and restarted', async () => {
    const first = uniqueName('first');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = first)));
    // Kill as soon as the reconcile has visibly begun (the finalizer is its first write).
    await eventually('reconcile to start', async () => (await getDeployment(kube.namespace, first))?.metadata.finalizers?.length, 30_000, 50);
    await killHard(workers);
    workers = await startWorkers();
    await waitForDeployment(kube.namespace, first, 'Running after the worker restart', phaseIs('Running'), 150_000);

    await killHard(watcher);
    const second = uniqueName('second');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = second)));
    watcher = await startWatcherProcess();
    await waitForDeployment(kube.namespace, second, 'Running after the watcher restart', phaseIs('Running'), 90_000);

    const owners = (await dgds()).map((d) => d.metadata?.ownerReferences?.[0]?.name).sort();
    expect(owners).toEqual([first, second].sort());

    await deleteDeployment(kube.namespace, first);
    await deleteDeployment(kube.namespace, second);
    await waitGone(kube.namespace, first);
    await waitGone(kube.namespace, second);
    await eventually('no provider resource left', async () => (await dgds()).length === 0);
  });
});
