import { KubeConfig, CoreV1Api } from '@kubernetes/client-node';
import { ensureTools } from '../../tools/build.ts';
import { resolveTool } from '../../tools/resolve.ts';
import type { ToolName } from '../../tools/versions.ts';
import { startDocker, type DockerEngine } from '../docker.ts';
import { BUSYBOX_IMAGE, kubeletNodeUnavailable, startKubeletNode, type KubeletNode } from '../kubelet-node.ts';
import { stopEach } from '../stop-each.ts';
import { freePort } from '../ports.ts';
import { stopProcess, type ManagedProcess } from '../process.ts';
import { startStack, type Stack, type StackOptions } from '../stack.ts';
import { applyClusterServices } from './cluster-services.ts';
import { startCoreDns } from './coredns.ts';
import { startGateway, type ClusterGateway } from './gateway.ts';
import { startKubeProxy } from './kube-proxy.ts';
import { startKubeScheduler } from './kube-scheduler.ts';
import { installLocalPathStorage } from './local-path.ts';
import { clusterNetworkUnavailable } from './network.ts';
import { nodeInCluster } from './node-network.ts';

// The cluster mode of the local stack (issue 33): the stack's servers, plus what makes it a cluster —
// the scheduler, a real node (kubelet, containerd, runc, CRIU 4) with a CNI pod network, kube-proxy and
// CoreDNS — all inside one network namespace of the stack's own; the host reaches the API server,
// Temporal and its UI on loopback through the relay (cluster-network.ts).

/** The node's name: one node per cluster, named for people reading `kubectl get nodes`. */
export const CLUSTER_NODE_NAME = 'kubeairunway-node';

export interface Cluster extends Stack {
  engine: DockerEngine;
  node: KubeletNode;
  /** Traefik serving the Gateway API's `gateways/inference` Gateway, reachable from this machine. */
  gateway: ClusterGateway;
}

export type ClusterOptions = Omit<StackOptions, 'cluster'> & {
  /** A Docker engine already running (the tests share one); started here (and stopped with the cluster) otherwise. */
  engine?: DockerEngine;
  /** The Gateway's HTTP port, on the host's loopback as in the namespace; a free one when left out. */
  gatewayPort?: number;
};

const CLUSTER_TOOLS = ['kube-scheduler', 'kube-proxy', 'coredns', 'cni-plugins', 'local-path-provisioner', 'traefik'] as const;

/** Builds (once, from the Go module proxy) the cluster's tools that plain setup skips; quick when cached. */
export async function ensureClusterTools(log: (line: string) => void): Promise<void> {
  await ensureTools(['kubelet', ...CLUSTER_TOOLS], log);
}

/** Why the cluster mode cannot run here (not root, no Docker engine, a tool not built), or undefined. */
export function clusterUnavailable(): string | undefined {
  const missing = CLUSTER_TOOLS.filter((name) => !resolveTool(name));
  if (missing.length > 0) return `not built: ${missing.join(', ')} (run \`npm run tools -- --cluster\`)`;
  return clusterNetworkUnavailable() ?? kubeletNodeUnavailable();
}

function tool(name: ToolName): string {
  const found = resolveTool(name);
  if (!found) throw new Error(`the cluster mode needs ${name}, which is not built: run \`npm run tools -- --cluster\``);
  return found.path;
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log ?? (() => undefined);
  const bins = { scheduler: tool('kube-scheduler'), proxy: tool('kube-proxy'), coredns: tool('coredns'), cni: tool('cni-plugins'), traefik: tool('traefik') };
  const stack = await startStack({ ...opts, cluster: true });
  const network = stack.network!;
  const ownEngine = !opts.engine;
  const extra: ManagedProcess[] = [];
  let engine: DockerEngine | undefined = opts.engine;
  let node: KubeletNode | undefined;
  let gateway: ClusterGateway | undefined;
  // Every step is tried even when one before it fails: a node that would not go must not keep the
  // stack's servers and network namespace (the stack's stop removes it) alive.
  const stop = () =>
    stopEach([
      ...[...extra].reverse().map((proc) => () => stopProcess(proc)),
      () => node?.stop(),
      () => (ownEngine ? engine?.stop() : undefined),
      () => stack.stop(),
    ]);
  const timed = async <T>(what: string, start: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    log(`starting ${what} ...`);
    const result = await start();
    log(`${what} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    return result;
  };
  try {
    const reach = (port: number) => network.relay.expose(port);
    const port = async () => {
      const p = await freePort();
      await reach(p);
      return p;
    };
    const kubeconfig = stack.kubeconfigPath;
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const schedulerPort = await port();
    extra.push(await timed('kube-scheduler', () => startKubeScheduler(bins.scheduler, opts.stateDir, kubeconfig, schedulerPort, network.netns)));
    await applyClusterServices(kc, stack.ports.temporal);
    engine ??= await timed('Docker engine', () => startDocker({ log }));
    const started = engine;
    node = await timed('node (containerd + kubelet)', () =>
      startKubeletNode(started, opts.stateDir, { kubeconfigPath: kubeconfig, nodeName: CLUSTER_NODE_NAME, log, cluster: nodeInCluster(network.netns, bins.cni, network.pki.caFile, reach) }),
    );
    await node.importImages([BUSYBOX_IMAGE]);
    const proxyPorts = { healthz: await port(), metrics: await port() };
    extra.push(await timed('kube-proxy', () => startKubeProxy(bins.proxy, opts.stateDir, kubeconfig, CLUSTER_NODE_NAME, proxyPorts, network.netns)));
    const dnsPorts = { health: await port(), ready: await port() };
    extra.push(await timed('CoreDNS', () => startCoreDns(bins.coredns, opts.stateDir, kubeconfig, dnsPorts, network.netns)));
    await timed(`node ${CLUSTER_NODE_NAME} Ready`, () => nodeReady(kc, CLUSTER_NODE_NAME, 120_000));
    await timed('local-path storage (the default StorageClass)', () => installLocalPathStorage({ engine: started, node: node!, kubeconfigPath: kubeconfig }, log));
    const gatewayPort = opts.gatewayPort ?? (await freePort());
    await reach(gatewayPort);
    const pingPort = await port();
    gateway = await timed('Gateway (Traefik, Gateway API CRDs)', () => startGateway({ bin: bins.traefik, stateDir: opts.stateDir, kubeconfig, netns: network.netns, port: gatewayPort, pingPort }));
    extra.push(gateway.process);
  } catch (err) {
    await stop();
    throw err;
  }
  return { ...stack, processes: [...stack.processes, ...extra], engine, node, gateway: gateway!, stop };
}

async function nodeReady(kc: KubeConfig, name: string, timeoutMs: number): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const deadline = Date.now() + timeoutMs;
  let last = 'not registered';
  while (Date.now() < deadline) {
    const node = await core.readNode({ name }).catch(() => undefined);
    const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status === 'True') return;
    if (ready) last = `${ready.reason}: ${ready.message}`;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`node ${name} not Ready after ${timeoutMs / 1000}s (${last})`);
}
