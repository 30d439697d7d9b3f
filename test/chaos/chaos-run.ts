// The chaos run: ModelDeployments created, scaled and deleted while the product's processes (two core
// workers with the providers, two watchers, the webhook), the Temporal server and the kube-apiserver are
// SIGKILLed and started again at random. At the end everything is started once more and the run checks
// what a user would: nothing lost, nothing duplicated or orphaned, everything converged, deletions within
// their deadline, no workflow failed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { bundleWorkflowCode } from '@temporalio/worker';
import { stackCrdFiles } from '../../devstack/crd-files.ts';
import { startStack } from '../../devstack/stack.ts';
import { BUNDLE_OPTIONS } from '../../worker/workflow-code.ts';
import { toMs } from '../../workflows/engine/durations.ts';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import { checkInvariants, type ChaosFindings } from './invariants.ts';
import { productProcess, type Killable } from './product-process.ts';
import { stackServer } from './stack-parts.ts';
import { Workload } from './workload.ts';

export interface ChaosOptions {
  /** Deployments created before the first kill. */
  initial: number;
  /** How long processes are killed and operations run. */
  durationMs: number;
  /** Mean pause between two kills. */
  killEveryMs: number;
  /** Keep killing past `durationMs` until this many kills happened (a loaded machine restarts parts slowly). */
  minKills?: number;
  seed: number;
  log: (line: string) => void;
}

export interface ChaosReport extends ChaosFindings {
  operations: Record<string, number>;
  kills: Record<string, number>;
}

const SETTINGS: Partial<ReconcileSettings> = {
  cleanupTimeout: '30s',
  resyncPeriod: '1m',
  retryDelay: '1s',
  maxRetryDelay: '5s',
  providerScheduleToStart: '10s',
  pollInterval: '1s',
  taskQueuePrefix: 'chaos',
};

/** A small deterministic generator, so a failing run can be repeated with its seed. */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const random = seededRandom(opts.seed);
  const stateDir = mkdtempSync(join(tmpdir(), 'kubeairunway-chaos-'));
  const repoRoot = new URL('../..', import.meta.url).pathname;
  const stack = await startStack({ stateDir, crdFiles: stackCrdFiles(repoRoot), temporalPersistent: true, supervise: true, log: (l) => opts.log(`[stack] ${l}`) });
  const parts: Killable[] = [];
  try {
    const kc = new KubeConfig();
    kc.loadFromFile(stack.kubeconfigPath);
    const namespace = 'chaos';
    const workload = new Workload(kc, namespace, random);
    await workload.prepare(['kubeairunway-system']);

    const bundlePath = join(stateDir, 'workflow-bundle.js');
    writeFileSync(bundlePath, (await bundleWorkflowCode({ ...BUNDLE_OPTIONS, logger: silentLogger })).code);
    const base = {
      kubeconfigPath: stack.kubeconfigPath,
      temporalAddress: stack.temporalAddress,
      temporalNamespace: stack.temporalNamespace,
      namespaces: [namespace],
      settings: SETTINGS,
      workflowBundlePath: bundlePath,
      core: false,
      watcher: false,
      providers: false,
      simulators: false,
    };
    // Two of each part the design says may run in several replicas; the simulated upstream operators
    // stand in for KAITO, Dynamo and KubeRay and are not a target (they are not ours).
    const targets: Killable[] = [
      productProcess('core worker 1', () => ({ ...base, core: true, providers: true })),
      productProcess('core worker 2', () => ({ ...base, core: true, providers: true })),
      productProcess('watcher 1', () => ({ ...base, watcher: true })),
      productProcess('watcher 2', () => ({ ...base, watcher: true })),
      productProcess('webhook', () => ({ ...base, webhookNamespace: 'kubeairunway-system' })),
      stackServer(stack, 'temporal'),
      stackServer(stack, 'kube-apiserver'),
    ];
    const simulators = productProcess('simulated operators', () => ({ ...base, simulators: true }));
    parts.push(simulators, ...targets.filter((t) => !['temporal', 'kube-apiserver'].includes(t.name)));
    for (const p of parts) await p.start();
    opts.log(`product running: ${parts.map((p) => p.name).join(', ')}`);

    await workload.createMany(opts.initial);
    const kills: Record<string, number> = {};
    // While the API server is down no deletion can finish (nor be seen finishing): those spans do not count against the deadline.
    const apiDown: [number, number][] = [];
    const end = Date.now() + opts.durationMs;
    const operating = workload.runUntil(end);
    const total = () => Object.values(kills).reduce((a, b) => a + b, 0);
    while (Date.now() < end || total() < (opts.minKills ?? 0)) {
      await sleep(opts.killEveryMs * (0.5 + random()));
      const target = targets[Math.floor(random() * targets.length)]!;
      kills[target.name] = (kills[target.name] ?? 0) + 1;
      opts.log(`kill ${target.name}`);
      const downAt = Date.now();
      await target.kill();
      await sleep(500 + random() * 2_500);
      await restart(target, opts.log);
      if (target.name === 'kube-apiserver') apiDown.push([downAt, Date.now()]);
    }
    await operating;
    for (const t of targets) if (!t.running) await restart(t, opts.log);
    opts.log(`chaos over after ${total()} kills; waiting for convergence`);
    const findings = await checkInvariants(kc, stack, workload, { namespace, deadlineMs: toMs(SETTINGS.cleanupTimeout!) + 30_000, apiDown, log: opts.log });
    return { ...findings, operations: workload.counts, kills };
  } finally {
    for (const p of parts) await p.kill();
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Starts a killed part again; a start that fails (its dependencies may be down too) is retried. */
async function restart(part: Killable, log: (line: string) => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await part.start();
      return;
    } catch (err) {
      if (attempt >= 10) throw new Error(`${part.name} did not start again: ${(err as Error).message}`);
      log(`${part.name} did not start (${(err as Error).message.split('\n')[0]}); again in 2 s`);
      await sleep(2_000);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silentLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never;
