// A cluster-mode stack for one cluster test file, with the product image built (or found) and imported
// into its node: what each file in test/cluster/ starts from.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { kubectlCommand } from '../../deploy/render.ts';
import { startCluster, type Cluster } from '../../devstack/cluster/cluster.ts';
import { loadProductImage } from '../../devstack/cluster/install-product.ts';
import { testStackCrds } from '../../devstack/crd-files.ts';
import { clusterCommands, type ClusterCommands } from './cluster-kubectl.ts';
import { hostFootprint, leftBehind } from '../support/host-footprint.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const seconds = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)}s`;

export interface TestCluster {
  cluster: Cluster;
  cmd: ClusterCommands;
  /** The product image, as install.yaml names it. */
  image: string;
  stop(): Promise<void>;
}

export async function startTestCluster(prefix: string, say: (line: string) => void): Promise<TestCluster> {
  const stateDir = mkdtempSync(join(tmpdir(), `kubeairunway-${prefix}-`));
  const before = hostFootprint(stateDir);
  const crds = testStackCrds(ROOT);
  let t0 = Date.now();
  const cluster = await startCluster({ stateDir, crdFiles: crds.files, crds: crds.crds, log: say }).catch((err: unknown) => {
    rmSync(stateDir, { recursive: true, force: true });
    throw err;
  });
  say(`cluster up in ${seconds(t0)}`);
  const stop = async () => {
    await cluster.stop();
    // The engine's mounts are this file's only when it stopped the engine (run alone, not under `npm test`).
    const left = leftBehind(before, hostFootprint(stateDir), cluster.engine.owned ? [] : ['engineMounts']);
    rmSync(stateDir, { recursive: true, force: true });
    if (left.length > 0) throw new Error(`the cluster left behind on this machine:\n${left.join('\n')}`);
    say('nothing left behind on this machine: interfaces, routes, firewall rules, network namespaces, mounts and processes as before');
  };
  try {
    t0 = Date.now();
    const image = await loadProductImage(cluster, ROOT, say);
    say(`image ${image} built (or found) and imported into the node in ${seconds(t0)}`);
    return { cluster, cmd: clusterCommands(cluster.kubeconfigPath, cluster.temporalAddress), image, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** `kubectl port-forward <target> :<port>` in `namespace` while `use` runs with the local port. */
export async function withPortForward<T>(kubeconfig: string, namespace: string, target: string, port: number, use: (localPort: string) => Promise<T>): Promise<T> {
  const forward = spawn(kubectlCommand(), ['--kubeconfig', kubeconfig, '-n', namespace, 'port-forward', target, `:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const local = await new Promise<string>((done, fail) => {
      forward.stdout.on('data', (chunk: Buffer) => {
        const m = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(chunk.toString());
        if (m) done(m[1]!);
      });
      forward.once('exit', (code) => fail(new Error(`kubectl port-forward ${target} exited (${code})`)));
    });
    return await use(local);
  } finally {
    forward.kill();
  }
}
