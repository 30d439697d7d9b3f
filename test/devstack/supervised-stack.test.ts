// The supervised local stack as `npm run dev` runs it (Temporal persisted, servers restarted when they
// die), in a temporary folder: SIGKILL the Temporal server and the kube-apiserver, and they come back
// on the same ports with their data; /healthz says what is down meanwhile; the product goes on.
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import { stackCrdFiles } from '../../devstack/crd-files.ts';
import { startLocalProduct, type LocalProduct } from '../../devstack/local-product.ts';
import { freePort } from '../../devstack/ports.ts';
import { startStack, type Stack } from '../../devstack/stack.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { eventually } from '../support/env.ts';

const mdRef = (name: string) => ({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: 'default', name });
const deployment = (name: string) => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: 'ModelDeployment',
  metadata: { name, namespace: 'default' },
  spec: { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'vllm' }, provider: { name: 'kuberay' }, resources: { gpu: { count: 1 } } },
});

async function healthz(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

describe('supervised local stack', () => {
  let dir: string;
  let stack: Stack;
  let product: LocalProduct;
  let objects: CustomObjects;
  let healthUrl: string;
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    process.stdout.write(`[supervised] ${line}\n`);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubeairunway-supervised-'));
    stack = await startStack({ stateDir: dir, crdFiles: stackCrdFiles(process.cwd()), temporalPersistent: true, supervise: true, log });
    product = await startLocalProduct(stack, { webhook: false, simulatedReadyAfterMs: 500, metricsPort: await freePort(), log });
    objects = new CustomObjects(product.kc);
    healthUrl = product.metricsUrl!.replace(/\/metrics$/, '/healthz');
  });

  let stopped = false;
  afterAll(async () => {
    if (!stopped) await product?.stop();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const running = (name: string) =>
    eventually(`${name} Running`, async () => {
      const md = (await objects.get(mdRef(name))) as (AnyObject & { status?: { phase?: string } }) | undefined;
      return md?.status?.phase === 'Running' ? md : undefined;
    }, 120_000);

  it('restarts a SIGKILLed Temporal server and kube-apiserver on the same ports with their data', async () => {
    expect(await healthz(healthUrl)).toEqual({ status: 200, body: 'ok\n' });
    const before = (await objects.apply(mdRef('before-kill'), deployment('before-kill') as AnyObject, 'supervised-test')) as AnyObject;
    await running('before-kill');
    const workflowId = workflowIdFor(MODEL_DEPLOYMENT_KIND, { namespace: 'default', name: 'before-kill', uid: before.metadata!.uid! });

    const temporalAddress = stack.temporalAddress;
    const apiServerUrl = stack.kubeApiServerUrl;
    const kubeconfig = readFileSync(stack.kubeconfigPath, 'utf8');
    const temporal = stack.processes.find((p) => p.name === 'temporal')!;
    const apiServer = stack.processes.find((p) => p.name === 'kube-apiserver')!;
    process.kill(temporal.pid, 'SIGKILL');
    process.kill(apiServer.pid, 'SIGKILL');

    // Unhealthy while they are down, naming them; healthy again once both are back.
    const unhealthy = await eventually('/healthz to report the killed servers', async () => {
      const h = await healthz(healthUrl);
      return h.status === 503 && h.body.includes('kube-apiserver') ? h : undefined;
    }, 30_000, 20);
    expect(unhealthy.body).toMatch(/^unhealthy\n/);
    // The watches too, each until its own list and watch are back (not merely the API server).
    await eventually('/healthz to name the lost ModelDeployment watch', async () => (await healthz(healthUrl)).body.includes('down: ModelDeployment watch (lost '), 30_000, 20);
    await eventually('/healthz ok again', async () => (await healthz(healthUrl)).status === 200, 180_000);

    // Same addresses: new processes behind the same ports, so every client and kubeconfig still works.
    expect(stack.temporalAddress).toBe(temporalAddress);
    expect(stack.kubeApiServerUrl).toBe(apiServerUrl);
    expect(readFileSync(stack.kubeconfigPath, 'utf8')).toBe(kubeconfig);
    const temporalNow = stack.processes.find((p) => p.name === 'temporal')!;
    const apiNow = stack.processes.find((p) => p.name === 'kube-apiserver')!;
    expect(temporalNow.pid).not.toBe(temporal.pid);
    expect(apiNow.pid).not.toBe(apiServer.pid);
    expect(JSON.parse(readFileSync(join(dir, 'stack.pids.json'), 'utf8')).pids).toEqual(expect.arrayContaining([temporalNow.pid, apiNow.pid]));
    expect(lines).toEqual(expect.arrayContaining([
      'Temporal dev server exited (signal SIGKILL); restarting it on the same port and data',
      'kube-apiserver exited (signal SIGKILL); restarting it on the same port and data',
      expect.stringMatching(/^Temporal dev server is back after [\d.]+s \(pid \d+\)$/),
      expect.stringMatching(/^kube-apiserver is back after [\d.]+s \(pid \d+\)$/),
    ]));

    // Temporal's history survived (SQLite under the state folder) and etcd kept the cluster.
    const connection = await Connection.connect({ address: temporalAddress });
    try {
      const client = new Client({ connection, namespace: stack.temporalNamespace });
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      expect(history.events?.length ?? 0).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
    expect(await objects.get(mdRef('before-kill'))).toBeDefined();

    // The product reconnected by itself: a deployment created now reaches Running.
    await objects.apply(mdRef('after-restart'), deployment('after-restart') as AnyObject, 'supervised-test');
    await running('after-restart');
    // Each watch said it was lost and back once, not once per retry.
    const mdWatchLines = lines.filter((l) => l.startsWith('ModelDeployment watch'));
    expect(mdWatchLines.filter((l) => l.includes(' lost ')).length).toBe(mdWatchLines.filter((l) => l.includes(' back after ')).length);
  });

  it('stops cleanly and leaves no pid file or server behind', async () => {
    const pids = stack.processes.map((p) => p.pid);
    stopped = true;
    await product.stop();
    await stack.stop();
    expect(existsSync(join(dir, 'stack.pids.json'))).toBe(false);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
