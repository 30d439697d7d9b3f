// The crash tests' harness: a controller in its own process (test/support/controller-process.ts), started
// and waited for until it is ready, killed with SIGKILL, and started again.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import { TEST_SETTINGS } from './controller.ts';
import { stackInfo } from './env.ts';

const SCRIPT = fileURLToPath(new URL('./controller-process.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

/** What controller-process.ts runs (passed to it as JSON). */
export interface ControllerProcessOptions {
  kubeconfigPath: string;
  temporalAddress: string;
  temporalNamespace: string;
  namespaces: string[];
  settings: Partial<ReconcileSettings>;
  core: boolean;
  watcher: boolean;
  providers: boolean;
  simulators: boolean;
  /** A prebuilt workflow bundle (written once by the caller), so a restarted process does not bundle again. */
  workflowBundlePath?: string;
  /** Run the admission webhook too, registered with the API server, storing its certificate in this namespace. */
  webhookNamespace?: string;
  /** The stack's RabbitMQ, for AsyncActors' queues (as startTestController passes it); without it the core declares none. */
  amqpUrl?: string;
}

/** The test stack's Kubernetes and Temporal, the test settings on task queues of `taskQueuePrefix`, watching `namespaces`. */
export function stackProcessOptions(namespaces: string[], taskQueuePrefix: string): Pick<ControllerProcessOptions, 'kubeconfigPath' | 'temporalAddress' | 'temporalNamespace' | 'namespaces' | 'settings'> {
  const stack = stackInfo();
  return {
    kubeconfigPath: stack.kubeconfigPath,
    temporalAddress: stack.temporalAddress,
    temporalNamespace: stack.temporalNamespace,
    namespaces,
    settings: { ...TEST_SETTINGS, taskQueuePrefix },
  };
}

/** The whole controller (core workers and watcher), without the built-in providers and simulators. */
export const WHOLE_CONTROLLER = { core: true, watcher: true, providers: false, simulators: false } as const;

/** Starts controller-process.ts with `options`; resolves once it prints READY, rejects if it exits first or is not ready within `readyWithinMs`. */
export function startProcess(options: ControllerProcessOptions, readyWithinMs = 60_000): Promise<ChildProcess> {
  // Its own process group: tsx runs the script in a child node process, and both must die together.
  const child = spawn(TSX, [SCRIPT, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`controller process not ready: ${out}`)), readyWithinMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`controller process exited (${code}): ${out}`)));
  });
}

/** Kills the process group of `child` with SIGKILL and resolves when it has exited (at once if it is not running). */
export function killHard(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGKILL');
  });
}
