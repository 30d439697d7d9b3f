// The controllers under measurement, each as OS processes of its own (so /proc gives their CPU and
// memory), started on the bench's local stack and stopped by process id.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, stopProcess, waitUntil, type ManagedProcess } from '../../devstack/process.ts';
import type { Stack } from '../../devstack/stack.ts';
import { buildProduct } from '../../scripts/build.ts';
import { PEER_PROVIDERS, type PeerBuild } from './peer-build.ts';

export interface RunningController {
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

const logContains = (file: string, text: string) => existsSync(file) && readFileSync(file, 'utf8').includes(text);

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
 * image runs; built fresh into dist/ first), `kubeairunway run` with the core, the watcher and all three
 * providers in one process, no metrics endpoint, like the peer's.
 */
export async function startOurs(repoRoot: string, stack: Stack, namespace: string): Promise<RunningController> {
  const logFile = join(stack.stateDir, 'ours-controller.log');
  const { outDir } = await buildProduct(join(repoRoot, 'dist'));
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

/**
 * The reference as its README runs it: the manager and each provider, webhooks and metrics off. Its
 * providers sometimes exit at start (they read back their InferenceProviderConfig before it is
 * visible): a failed start is tried again, twice at most.
 */
export async function startReference(build: PeerBuild, stack: Stack): Promise<RunningController> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startReferenceOnce(build, stack);
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

async function startReferenceOnce(build: PeerBuild, stack: Stack): Promise<RunningController> {
  const env = { KUBECONFIG: stack.kubeconfigPath, ENABLE_WEBHOOKS: 'false' };
  const common = ['--leader-elect=false', '--metrics-bind-address=0', '--health-probe-bind-address=0'];
  const parts = [
    { name: 'reference manager', bin: build.manager, args: [...common, '--enable-provider-selector=true'], log: 'reference-manager.log' },
    ...PEER_PROVIDERS.map((p) => ({ name: `reference ${p} provider`, bin: build.providers[p], args: common, log: `reference-${p}-provider.log` })),
  ];
  const processes: ManagedProcess[] = [];
  try {
    for (const part of parts) processes.push(startProcess(part.name, part.bin, part.args, join(stack.stateDir, part.log), env));
    // controller-runtime logs "Starting workers" once a controller's caches are synced.
    for (const p of processes) await waitUntil(p, 'started', 120_000, async () => logContains(p.logFile, 'Starting workers'));
  } catch (err) {
    await stopAll(processes);
    throw err;
  }
  return { processes, stop: () => stopAll(processes) };
}
