import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { resolveAllTools } from '../tools/resolve.ts';
import { installCrds, readCrdFiles } from './crds.ts';
import { startEtcd } from './etcd.ts';
import { startKubeApiServer } from './kube-apiserver.ts';
import { startKubeControllerManager } from './kube-controller-manager.ts';
import { writeKubeconfig } from './kubeconfig.ts';
import { recordPids, reapStack } from './leftovers.ts';
import { killChildrenOnExit, stopProcess, type ManagedProcess } from './process.ts';
import { startTemporal } from './temporal.ts';

export interface StackOptions {
  /** Folder for data, logs, certificates and the kubeconfig. Reusing it keeps the cluster's and Temporal's data. */
  stateDir: string;
  /** CRD files to install before the controllers start (so the garbage collector discovers them at once). */
  crdFiles?: readonly string[];
  /** Web UI and a SQLite history file (the embedded run); headless and in memory otherwise. */
  temporalUi?: boolean;
  temporalPersistent?: boolean;
  temporalPort?: number;
  temporalUiPort?: number;
  /** Progress lines; silent when omitted. */
  log?: (line: string) => void;
}

export interface Stack {
  stateDir: string;
  kubeconfigPath: string;
  kubeApiServerUrl: string;
  /** etcd's client URL (a restarted API server points at it again). */
  etcdUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  temporalUiUrl: string | undefined;
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

/** Starts etcd, kube-apiserver, kube-controller-manager and the Temporal dev server on loopback, in that order. */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const log = opts.log ?? (() => {});
  const bins = resolveAllTools();
  mkdirSync(opts.stateDir, { recursive: true });
  const reaped = reapStack(opts.stateDir);
  if (reaped > 0) log(`stopped ${reaped} process(es) left over from an earlier run in ${opts.stateDir}`);
  killChildrenOnExit();

  const processes: ManagedProcess[] = [];
  const track = (p: ManagedProcess) => {
    processes.push(p);
    recordPids(opts.stateDir, processes.map((x) => x.pid));
  };
  const stop = async () => {
    for (const p of [...processes].reverse()) await stopProcess(p);
  };
  const timed = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    log(`starting ${what} ...`);
    const result = await fn();
    log(`${what} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    return result;
  };

  try {
    const etcd = await timed('etcd', () => startEtcd(bins.etcd, opts.stateDir));
    track(etcd.process);
    const api = await timed('kube-apiserver', () => startKubeApiServer(bins['kube-apiserver'], opts.stateDir, etcd.url));
    track(api.process);
    const kubeconfigPath = join(opts.stateDir, 'kubeconfig');
    writeKubeconfig(kubeconfigPath, { server: api.url, token: api.adminToken, caFile: api.caFile });
    if (opts.crdFiles?.length) {
      const crds = readCrdFiles(opts.crdFiles);
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfigPath);
      await timed(`${crds.length} CRDs`, () => installCrds(kc, crds));
    }
    track(await timed('kube-controller-manager', () => startKubeControllerManager(bins['kube-controller-manager'], opts.stateDir, kubeconfigPath)));
    const temporal = await timed('Temporal dev server', () =>
      startTemporal(bins.temporal, opts.stateDir, {
        ui: opts.temporalUi,
        dbFile: opts.temporalPersistent ? join(opts.stateDir, 'temporal.db') : undefined,
        port: opts.temporalPort,
        uiPort: opts.temporalUiPort,
      }),
    );
    track(temporal.process);
    return {
      stateDir: opts.stateDir,
      kubeconfigPath,
      kubeApiServerUrl: api.url,
      etcdUrl: etcd.url,
      temporalAddress: temporal.address,
      temporalNamespace: temporal.namespace,
      temporalUiUrl: temporal.uiUrl,
      processes,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
