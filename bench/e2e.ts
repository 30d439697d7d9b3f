// End to end on a fresh local stack: N deployments created at once, time until all are Running and
// until all are deleted, workflow history per deployment, and the controller process's memory.
import { MODEL_DEPLOYMENT_KIND } from '../api/constants.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { startStack } from '../devstack/stack.ts';
import { stackCrdFiles } from '../devstack/crd-files.ts';
import { startLocalProduct } from '../devstack/local-product.ts';
import { CustomObjects, type AnyObject } from '../kube/custom-objects.ts';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../api/constants.ts';
import { workflowIdFor } from '../contract/object-ref.ts';
import { percentile } from './measure.ts';

export interface E2eResult {
  deployments: number;
  allRunningSeconds: number;
  runningP50Seconds: number;
  runningP95Seconds: number;
  allDeletedSeconds: number;
  historyEventsPerDeployment: number;
  rssPeakMiB: number;
  heapUsedMiB: number;
}

export async function benchE2e(count: number): Promise<E2eResult> {
  const stateDir = mkdtempSync(join(tmpdir(), 'kubeairunway-bench-'));
  const stack = await startStack({ stateDir, crdFiles: stackCrdFiles(new URL('..', import.meta.url).pathname) });
  const product = await startLocalProduct(stack, { webhook: false, simulatedReadyAfterMs: 0, settings: { taskQueuePrefix: 'bench' } });
  const { kc, controller } = product;
  const namespace = 'default';
  const objects = new CustomObjects(kc);
  const template = parse(readFileSync(new URL('../examples/gpu-vllm-dynamo.yaml', import.meta.url), 'utf8')) as AnyObject;
  const ref = (name: string) => ({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace, name });
  let rssPeak = process.memoryUsage().rss;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  try {
    const names = Array.from({ length: count }, (_, i) => `bench-${i}`);
    const start = Date.now();
    const uids = new Map<string, string>();
    await Promise.all(
      names.map(async (name) => {
        const created = await objects.apply(ref(name), { ...template, metadata: { name, namespace } }, 'bench');
        uids.set(name, created.metadata!.uid!);
      }),
    );
    const runningAt = new Map<string, number>();
    while (runningAt.size < count) {
      for (const md of await objects.list({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace })) {
        const name = md.metadata!.name!;
        if (!runningAt.has(name) && (md.status as { phase?: string } | undefined)?.phase === 'Running') runningAt.set(name, (Date.now() - start) / 1000);
      }
      if (Date.now() - start > 300_000) throw new Error(`only ${runningAt.size}/${count} Running after 300 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const allRunning = (Date.now() - start) / 1000;
    // Let the last echoes of our own writes settle before counting history.
    await new Promise((r) => setTimeout(r, 2_000));
    let events = 0;
    for (const name of names) {
      events += (await controller.client.workflow.getHandle(workflowIdFor(MODEL_DEPLOYMENT_KIND, { namespace, name, uid: uids.get(name)! })).describe()).historyLength;
    }
    const delStart = Date.now();
    await Promise.all(names.map((name) => objects.delete(ref(name))));
    while ((await objects.list({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace })).length > 0) {
      if (Date.now() - delStart > 300_000) throw new Error('deletions did not finish in 300 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const times = [...runningAt.values()];
    return {
      deployments: count,
      allRunningSeconds: allRunning,
      runningP50Seconds: percentile(times, 50),
      runningP95Seconds: percentile(times, 95),
      allDeletedSeconds: (Date.now() - delStart) / 1000,
      historyEventsPerDeployment: Math.round(events / count),
      rssPeakMiB: Math.round(rssPeak / 1024 / 1024),
      heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 1024 / 1024),
    };
  } finally {
    clearInterval(sampler);
    await product.stop();
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
