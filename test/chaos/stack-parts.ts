// The local stack's servers as chaos targets: SIGKILLed by process id and started again on the same
// port with the same data (etcd keeps the cluster, Temporal its SQLite history), as a supervisor would.
import { join } from 'node:path';
import { startKubeApiServer } from '../../devstack/kube-apiserver.ts';
import type { ManagedProcess } from '../../devstack/process.ts';
import type { Stack } from '../../devstack/stack.ts';
import { startTemporal } from '../../devstack/temporal.ts';
import { resolveAllTools } from '../../tools/resolve.ts';
import type { Killable } from './product-process.ts';

function killProcess(proc: ManagedProcess): Promise<void> {
  if (proc.exited) return Promise.resolve();
  return new Promise((resolve) => {
    proc.child.once('exit', () => resolve());
    process.kill(proc.pid, 'SIGKILL');
  });
}

/** The Temporal dev server of a stack started with `temporalPersistent`: history survives the kill. */
export function temporalPart(stack: Stack): Killable {
  const bins = resolveAllTools();
  const port = Number(stack.temporalAddress.split(':').pop());
  let proc = stack.processes.find((p) => p.name === 'temporal')!;
  return {
    name: 'temporal',
    get running() {
      return !proc.exited;
    },
    kill: () => killProcess(proc),
    async start() {
      const server = await startTemporal(bins.temporal, stack.stateDir, { dbFile: join(stack.stateDir, 'temporal.db'), port });
      stack.processes.push(server.process);
      proc = server.process;
    },
  };
}

/** The kube-apiserver: etcd keeps every object, so it comes back with the cluster as it was. */
export function apiServerPart(stack: Stack): Killable {
  const bins = resolveAllTools();
  const port = Number(new URL(stack.kubeApiServerUrl).port);
  let proc = stack.processes.find((p) => p.name === 'kube-apiserver')!;
  return {
    name: 'kube-apiserver',
    get running() {
      return !proc.exited;
    },
    kill: () => killProcess(proc),
    async start() {
      const api = await startKubeApiServer(bins['kube-apiserver'], stack.stateDir, stack.etcdUrl, port);
      stack.processes.push(api.process);
      proc = api.process;
    },
  };
}
