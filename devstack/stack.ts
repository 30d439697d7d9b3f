import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { AnyObject } from '../kube/custom-objects.ts';
import { resolveAllTools } from '../tools/resolve.ts';
import { installCrds, readCrdFiles } from './crds.ts';
import { startEtcd } from './etcd.ts';
import { startKubeApiServer } from './kube-apiserver.ts';
import { startKubeControllerManager } from './kube-controller-manager.ts';
import { writeKubeconfig } from './kubeconfig.ts';
import { abandonStack, reapStackAndWait, recordPids, recordUndo, removePidFile } from './leftovers.ts';
import { stopEach } from './stop-each.ts';
import { planPorts, type PortName, type StackPorts } from './port-plan.ts';
import { killChildrenOnExit, stopProcessesLoggingIn, type ManagedProcess } from './process.ts';
import { resolveRabbitmq, startEpmd, startRabbitmq, type RabbitMq } from './rabbitmq.ts';
import { Supervisor, type StackHealth } from './supervisor.ts';
import { startTemporal } from './temporal.ts';
import { startClusterNetwork, type ClusterNetwork } from './cluster/cluster-network.ts';

export interface StackOptions {
  /** Folder for data, logs, certificates and the kubeconfig. Reusing it keeps the cluster's and Temporal's data. */
  stateDir: string;
  /** CRD files to install before the controllers start (so the garbage collector discovers them at once). */
  crdFiles?: readonly string[];
  /** CRDs to install with those files, given as objects (e.g. an upstream CRD changed for this cluster). */
  crds?: readonly AnyObject[];
  /** Web UI and a SQLite history file (the embedded run); headless and in memory otherwise. */
  temporalUi?: boolean;
  temporalPersistent?: boolean;
  /**
   * Ports that must be exactly these (the ones people type): the start fails, naming the process that
   * holds one, rather than moving it. `flag` is how the user chooses another, for that message.
   */
  fixedPorts?: Partial<Record<PortName, { port: number; what: string; flag?: string }>>;
  /** Restart a server that dies (the embedded run); otherwise a death is only reported. */
  supervise?: boolean;
  /** Aborting it (Ctrl-C while starting) stops whatever has started and fails the start. */
  signal?: AbortSignal;
  /** Progress lines; silent when omitted. */
  log?: (line: string) => void;
  /**
   * The cluster mode's network (devstack/cluster/): etcd, the API server (as a cluster's), the controller
   * manager (every default controller) and Temporal run inside a network namespace of the stack's own,
   * reached from the host through a relay on the same loopback ports. RabbitMQ stays on the host.
   */
  cluster?: boolean;
}

export interface Stack {
  stateDir: string;
  kubeconfigPath: string;
  kubeApiServerUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  temporalUiUrl: string | undefined;
  /** RabbitMQ on loopback, `amqp://guest:guest@127.0.0.1:<port>`. */
  amqpUrl: string;
  ports: StackPorts;
  /** The cluster mode's network namespace, its certificates and its relay; undefined otherwise. */
  network: ClusterNetwork | undefined;
  /** The servers as they run now (a restarted one replaces its entry). */
  processes: ManagedProcess[];
  /** Which servers are down (being restarted) right now. */
  health(): StackHealth;
  stop(): Promise<void>;
}

/**
 * Starts etcd, kube-apiserver, kube-controller-manager and the Temporal dev server on loopback, in that
 * order, and RabbitMQ (with its own epmd) beside them, and keeps them running: one that dies is restarted
 * on the same ports and data. Leftovers of an earlier run in the same folder are reaped first, before any
 * port is chosen, so they never push this run off its ports.
 */
/** The servers of a cluster-mode stack that the host reaches through the relay (RabbitMQ runs on the host). */
const RELAYED_PORTS: readonly PortName[] = ['etcdClient', 'kubeApiServer', 'kubeControllerManager', 'temporal', 'temporalUi', 'temporalHttp', 'temporalMetrics'];

export async function startStack(opts: StackOptions): Promise<Stack> {
  const log = opts.log ?? (() => {});
  const bins = resolveAllTools();
  const rabbitBins = resolveRabbitmq();
  mkdirSync(opts.stateDir, { recursive: true });
  const reaped = await reapStackAndWait(opts.stateDir);
  if (reaped > 0) log(`stopped ${reaped} process(es) left over from an earlier run in ${opts.stateDir}`);
  killChildrenOnExit();
  // A run that ends without stop() (an uncaught error) kills its servers on exit; its network namespace
  // and pid file go too.
  const onExit = () => abandonStack(opts.stateDir);
  process.once('exit', onExit);
  const ports = await planPorts(opts.stateDir, opts.fixedPorts ?? {}, log);

  const processes: ManagedProcess[] = [];
  const supervisor = new Supervisor(
    log,
    () => {
      // Replaced in place: callers hold this array.
      processes.splice(0, processes.length, ...supervisor.processes());
      recordPids(opts.stateDir, processes.map((p) => p.pid));
    },
    opts.supervise ?? false,
  );
  let stopped = false;
  let network: ClusterNetwork | undefined;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopEach([
      () => supervisor.stop(),
      // A server being started (first start or restart) when the stop came is not known to the supervisor yet.
      () => stopProcessesLoggingIn(opts.stateDir),
      () => network?.stop(),
    ]);
    removePidFile(opts.stateDir);
    process.off('exit', onExit);
  };
  const stopping = () => void stop();
  opts.signal?.addEventListener('abort', stopping, { once: true });
  const timed = async (what: string, start: () => Promise<ManagedProcess>): Promise<ManagedProcess> => {
    if (stopped) throw new Error(`stopped before ${what} started`);
    const t0 = Date.now();
    log(`starting ${what} ...`);
    const proc = await supervisor.add({ name: what, start });
    log(`${what} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    return proc;
  };

  // RabbitMQ needs nothing from the other servers, so it boots (several seconds) while they do.
  const broker = (async (): Promise<RabbitMq> => {
    await timed('RabbitMQ epmd', () => startEpmd(rabbitBins.epmd, opts.stateDir, ports.rabbitmqEpmd));
    let rabbit!: RabbitMq;
    const rabbitPorts = { amqp: ports.rabbitmq, dist: ports.rabbitmqDist, epmd: ports.rabbitmqEpmd };
    await timed('RabbitMQ', async () => (rabbit = await startRabbitmq(rabbitBins.server, opts.stateDir, rabbitPorts)).process);
    return rabbit;
  })();
  broker.catch(() => {});

  try {
    if (opts.cluster) {
      network = await startClusterNetwork(opts.stateDir, log);
      // Should this process die without stopping the stack, whoever reaps it removes the namespace too.
      recordUndo(opts.stateDir, ['ip', 'netns', 'del', network.netns]);
      const inside = network.startRelayInside;
      await timed('network relay', inside);
      for (const name of RELAYED_PORTS) await network.relay.expose(ports[name]);
    }
    const netns = network?.netns;
    const etcdUrl = `http://127.0.0.1:${ports.etcdClient}`;
    await timed('etcd', async () => (await startEtcd(bins.etcd, opts.stateDir, { client: ports.etcdClient, peer: ports.etcdPeer }, netns)).process);
    const inCluster = network && { netns: network.netns, pki: network.pki };
    const apiServer = async () => startKubeApiServer(bins['kube-apiserver'], opts.stateDir, etcdUrl, ports.kubeApiServer, inCluster);
    let api!: Awaited<ReturnType<typeof apiServer>>;
    await timed('kube-apiserver', async () => (api = await apiServer()).process);
    const kubeconfigPath = join(opts.stateDir, 'kubeconfig');
    writeKubeconfig(kubeconfigPath, { server: api.url, token: api.adminToken, caFile: api.caFile });
    if (opts.crdFiles?.length || opts.crds?.length) {
      const crds = [...readCrdFiles(opts.crdFiles ?? []), ...(opts.crds ?? [])];
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfigPath);
      const t0 = Date.now();
      await installCrds(kc, crds);
      log(`${crds.length} CRDs ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    }
    const controllersInCluster = network && { netns: network.netns, caFile: network.pki.caFile, serviceAccountKeyFile: join(opts.stateDir, 'pki', 'sa.key') };
    await timed('kube-controller-manager', () => startKubeControllerManager(bins['kube-controller-manager'], opts.stateDir, kubeconfigPath, ports.kubeControllerManager, controllersInCluster));
    const temporalOpts = {
      ui: opts.temporalUi,
      dbFile: opts.temporalPersistent ? join(opts.stateDir, 'temporal.db') : undefined,
      port: ports.temporal,
      uiPort: ports.temporalUi,
      httpPort: ports.temporalHttp,
      metricsPort: ports.temporalMetrics,
      netns,
    };
    let temporal!: Awaited<ReturnType<typeof startTemporal>>;
    await timed('Temporal dev server', async () => (temporal = await startTemporal(bins.temporal, opts.stateDir, temporalOpts)).process);
    const rabbit = await broker;
    opts.signal?.removeEventListener('abort', stopping);
    if (stopped) throw new Error('stopped while starting');
    return {
      stateDir: opts.stateDir,
      kubeconfigPath,
      kubeApiServerUrl: api.url,
      temporalAddress: temporal.address,
      temporalNamespace: temporal.namespace,
      temporalUiUrl: temporal.uiUrl,
      amqpUrl: rabbit.amqpUrl,
      ports,
      network,
      processes,
      health: () => supervisor.health(),
      stop,
    };
  } catch (err) {
    await stop();
    // Its start fails soon after the stop (its process is stopped, or it is not started at all).
    await broker.catch(() => undefined);
    throw err;
  }
}
