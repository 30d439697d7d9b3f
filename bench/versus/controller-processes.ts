// The controllers under measurement, each as OS processes of its own (so /proc gives their CPU and
// memory), started on the bench's local stack and stopped by process id.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, stopProcess, waitUntil, type ManagedProcess } from '../../devstack/process.ts';
import type { Stack } from '../../devstack/stack.ts';
import { buildProduct } from '../../scripts/build.ts';
import { PEER_PROVIDERS, type PeerDir } from './peer-dir.ts';

export interface RunningController {
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

const logContains = (file: string, text: string, from = 0) => existsSync(file) && readFileSync(file, 'utf8').slice(from).includes(text);
/** Where a log ends now: a retried start appends to the same file and must not read the last attempt's lines. */
const logEnd = (file: string) => (existsSync(file) ? statSync(file).size : 0);

async function stopAll(processes: readonly ManagedProcess[]): Promise<void> {
  for (const p of [...processes].reverse()) await stopProcess(p, 15_000);
}

/** The image's environment for the process (Dockerfile), beside its NODE_OPTIONS. */
const IMAGE_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

/** BENCH_OURS_ENV (`NAME=value NAME=value`) adds to or overrides the image's environment, for a try before the Dockerfile changes. */
function oursEnv(): Record<string, string> {
  // At the first '=' only: a value may hold more of them.
  const extra = (process.env.BENCH_OURS_ENV ?? '').split(' ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]);
  return { ...IMAGE_ENV, ...Object.fromEntries(extra) };
}

/**
 * Ours as it ships: the production build (compiled JavaScript and the prebuilt workflow bundle, what the
 * image runs), built fresh into dist/ once, before anything is timed: the image is built before it runs,
 * and a start figure that held the build (about 14 s) measured the compiler, not the controller.
 */
export async function buildOurs(repoRoot: string): Promise<{ outDir: string; seconds: number }> {
  const t0 = Date.now();
  const { outDir } = await buildProduct(join(repoRoot, 'dist'));
  return { outDir, seconds: (Date.now() - t0) / 1000 };
}

/**
 * Ours from that build: `kubeairunway run` with the core, the watcher and all built-in providers in one
 * process, no metrics endpoint, like the peer's.
 */
export async function startOurs(outDir: string, stack: Stack, namespace: string): Promise<RunningController> {
  const logFile = join(stack.stateDir, 'ours-controller.log');
  const proc = startProcess(
    'kubeairunway run',
    process.execPath,
    // The image's NODE_OPTIONS (Dockerfile): the flag it ships with. BENCH_OURS_NODE_ARGS adds more for a
    // look inside (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`); the figures then include their cost.
    ['--max-semi-space-size=4', ...(process.env.BENCH_OURS_NODE_ARGS?.split(' ').filter(Boolean) ?? []), join(outDir, 'cli', 'main.js'), 'run', '--kubeconfig', stack.kubeconfigPath, '--temporal-address', stack.temporalAddress, '--temporal-namespace', stack.temporalNamespace, '--namespaces', namespace, '--no-metrics'],
    logFile,
    oursEnv(),
  );
  try {
    await waitUntil(proc, 'running', 180_000, async () => logContains(logFile, 'kubeairunway controller running'));
  } catch (err) {
    await stopProcess(proc);
    throw err;
  }
  return { processes: [proc], stop: () => stopAll([proc]) };
}

/** Where the peer's processes find the cluster and write their logs. */
export interface PeerTarget {
  kubeconfigPath: string;
  logDir: string;
  /** How long each process may take to log that its controllers run (default 120 s). */
  startTimeoutMs?: number;
}

/** Flags every peer process gets: no leader election, no metrics or health endpoints (ours runs without them too). */
export const PEER_COMMON_ARGS = ['--leader-elect=false', '--metrics-bind-address=0', '--health-probe-bind-address=0'] as const;
/** The manager's own: it selects the provider by its CEL rules, as ours does. */
export const PEER_MANAGER_ARGS = [...PEER_COMMON_ARGS, '--enable-provider-selector=true'] as const;
/** Its environment: the stack's kubeconfig, and no admission webhook (the stack has no route to one). */
export const peerEnv = (kubeconfigPath: string) => ({ KUBECONFIG: kubeconfigPath, ENABLE_WEBHOOKS: 'false' });
/** controller-runtime logs this once a controller's caches are synced: the sign a peer process is up. */
export const PEER_READY_LINE = 'Starting workers';

/**
 * The peer as its README runs it: the manager and each provider, webhooks and metrics off. Its
 * providers sometimes exit at start (they read back their InferenceProviderConfig before it is
 * visible): a failed start is tried again, twice at most.
 */
export async function startReference(peer: PeerDir, target: PeerTarget): Promise<RunningController> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startReferenceOnce(peer, target);
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

async function startReferenceOnce(peer: PeerDir, target: PeerTarget): Promise<RunningController> {
  const env = peerEnv(target.kubeconfigPath);
  const parts = [
    { name: 'reference manager', bin: peer.manager, args: [...PEER_MANAGER_ARGS], log: 'reference-manager.log' },
    ...PEER_PROVIDERS.map((p) => ({ name: `reference ${p} provider`, bin: peer.providers[p], args: [...PEER_COMMON_ARGS], log: `reference-${p}-provider.log` })),
  ];
  const processes: ManagedProcess[] = [];
  const from = new Map<ManagedProcess, number>();
  try {
    for (const part of parts) {
      const logFile = join(target.logDir, part.log);
      const offset = logEnd(logFile);
      const proc = startProcess(part.name, part.bin, part.args, logFile, env);
      processes.push(proc);
      from.set(proc, offset);
    }
    for (const p of processes) await waitUntil(p, 'started', target.startTimeoutMs ?? 120_000, async () => logContains(p.logFile, PEER_READY_LINE, from.get(p)));
  } catch (err) {
    await stopAll(processes);
    throw err;
  }
  return { processes, stop: () => stopAll(processes) };
}
