import { stackCrdFiles } from '../../devstack/crd-files.ts';
import { devNodeDir, nodeUnavailable, startNodeWithEngine, type RunningNode } from '../../devstack/dev-node.ts';
import { removePidFile } from '../../devstack/leftovers.ts';
import { startLocalProduct, type LocalProduct } from '../../devstack/local-product.ts';
import { startRealOperators, type RealOperators } from '../../devstack/operators.ts';
import { describeHolder, portHolder } from '../../devstack/port-holder.ts';
import { PortTakenError, portTakenMessage } from '../../devstack/port-plan.ts';
import { portIsFree } from '../../devstack/ports.ts';
import { stopProcessesLoggingIn } from '../../devstack/process.ts';
import { startStack, type Stack, type StackOptions } from '../../devstack/stack.ts';
import { killAllNow } from '../../devstack/process.ts';
import { CliError } from '../../present/errors.ts';
import { repoRoot } from '../repo-root.ts';
import { InterruptCounter, repeatMessage } from './interrupt-counter.ts';
import { swallowShutdownNoise } from './shutdown-noise.ts';
import { lockStateFolder } from './state-lock.ts';

export interface DevOptions {
  stateDir: string;
  temporalPort: number;
  temporalUiPort: number;
  metricsPort: number;
  /** The KybernateWorkloads' activator on loopback; none when omitted. */
  activatorPort?: number;
  /** Run the real KubeRay and KEDA operators (devstack/operators.ts) instead of the simulated KubeRay operator. */
  realOperators?: boolean;
  /** Run the Kybernate node container (private Docker engine, CRIU 4) and this node's worker on its containerd. */
  kybernateNode?: boolean;
  /** The cluster mode: a real one-node cluster with the product installed in it as pods (run-dev-cluster.ts). */
  cluster?: boolean;
}

/** The stack `dev` runs (plain or as a cluster): persistent, supervised, on the ports people type. */
export function devStackOptions(opts: DevOptions, signal: AbortSignal, log: (line: string) => void): StackOptions {
  return {
    stateDir: opts.stateDir,
    crdFiles: stackCrdFiles(repoRoot()),
    temporalUi: true,
    temporalPersistent: true,
    supervise: true,
    fixedPorts: {
      temporal: { port: opts.temporalPort, what: 'The Temporal server', flag: '--temporal-port' },
      temporalUi: { port: opts.temporalUiPort, what: 'The Temporal UI', flag: '--temporal-ui-port' },
    },
    signal,
    log,
  };
}

/** The dev stack's node: the name Kybernate routes checkpoints of pods with `spec.nodeName` to. */
export const DEV_NODE_NAME = 'dev-node';


/** The embedded run: the whole local stack on loopback, supervised, until Ctrl-C; one per state folder. */
export async function runDev(opts: DevOptions): Promise<void> {
  const lock = lockStateFolder(opts.stateDir);
  try {
    if (opts.cluster) {
      const { runDevCluster } = await import('./run-dev-cluster.ts');
      await runDevCluster(opts);
    } else {
      await runLocked(opts);
    }
  } finally {
    lock.release();
  }
}

async function runLocked(opts: DevOptions): Promise<void> {
  const log = (line: string) => process.stdout.write(`[dev] ${line}\n`);
  // Signals are handled from the first moment: a Ctrl-C while the stack starts stops what started.
  const interrupted = onInterrupt((remaining) => log(repeatMessage(remaining)));
  let stack: Stack | undefined;
  let product: LocalProduct | undefined;
  let operators: RealOperators | undefined;
  let node: RunningNode | undefined;
  const aborting = new AbortController();
  const starting = (async () => {
    // Said before anything starts: asked for, a node that cannot run here fails the start at once.
    const noNode = opts.kybernateNode ? nodeUnavailable() : undefined;
    if (noNode) throw new CliError(`--kybernate-node cannot start the Kybernate node container here: ${noNode}.`);
    await claimPort(opts.metricsPort, 'The metrics and /healthz', '--metrics-port');
    if (opts.activatorPort !== undefined) await claimPort(opts.activatorPort, 'The KybernateWorkload activator', '--activator-port');
    stack = await startStack(devStackOptions(opts, aborting.signal, log));
    if (opts.realOperators) {
      const t0 = Date.now();
      operators = await startRealOperators({ kubeconfigPath: stack.kubeconfigPath, stateDir: stack.stateDir });
      log(`KubeRay and KEDA operators ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    }
    const realOperators = operators ? { realOperators: operators.simulatorsReplaced } : {};
    if (opts.kybernateNode) {
      const t0 = Date.now();
      node = await startNodeWithEngine(devNodeDir(stack.stateDir), { log, name: `kubeairunway-dev-node-${process.pid}` }).catch((err: Error) => {
        throw new CliError(`--kybernate-node: the Kybernate node container did not start: ${err.message}`);
      });
      log(`Kybernate node ${DEV_NODE_NAME} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (CRIU ${node.criuVersion ?? '?'})`);
    }
    const nodeWorker = node ? { node: { name: DEV_NODE_NAME, containerdSocket: node.node.socket } } : {};
    product = await startLocalProduct(stack, { webhook: true, simulatedReadyAfterMs: 5_000, metricsPort: opts.metricsPort, ...(opts.activatorPort !== undefined ? { activatorPort: opts.activatorPort } : {}), ...realOperators, ...nodeWorker, log });
  })();
  const first = await Promise.race([starting.then(() => 'started' as const), interrupted.then(() => 'interrupted' as const)]).catch(async (err: Error) => {
    await product?.stop();
    await node?.stop();
    await operators?.stop();
    await stack?.stop();
    removePidFile(opts.stateDir);
    if (err instanceof PortTakenError) throw new CliError(err.message);
    throw err;
  });
  if (first === 'interrupted') {
    log('interrupted while starting; stopping what started ...');
    swallowShutdownNoise(log);
    // The stack stops its servers (a server still starting too); the start then fails, as expected now.
    aborting.abort();
    await starting.catch(() => undefined);
    await product?.stop();
    await node?.stop();
    await operators?.stop();
    await stack?.stop();
    await stopProcessesLoggingIn(opts.stateDir);
    removePidFile(opts.stateDir);
    log('stopped');
    return;
  }
  printWelcome(stack!, product!, operators, node);
  await interrupted;
  log('stopping ...');
  // Calls in flight when the Temporal connection closes fail with "Channel has been shut down"; expected now.
  swallowShutdownNoise(log);
  await product!.stop();
  // The node worker is stopped with the product; then the node container and the Docker engine (when this
  // process started it), whose processes are no servers of the stack.
  await node?.stop();
  await operators?.stop();
  // The stack's servers are stopped by process id, whatever happened above.
  await stack!.stop();
  log('stopped');
  exitSoonIfStillRunning(log);
}

/**
 * Everything is stopped; the process ends when nothing is left to do. Should anything still hold it
 * (a retry loop that missed the stop), it would sit there after saying "stopped", and Ctrl-C would seem
 * not to work: it ends after a moment anyway, naming the fault. The timer itself keeps nothing alive.
 */
export function exitSoonIfStillRunning(log: (line: string) => void): void {
  setTimeout(() => {
    log('still running a moment after stopping (a leftover timer or connection); exiting');
    process.exit(process.exitCode ?? 0);
  }, 3_000).unref();
}

/** The metrics server is this process's own, so it is not in the stack's port plan; same rule, though. */
async function claimPort(port: number, what: string, flag: string): Promise<void> {
  if (await portIsFree(port)) return;
  const holder = portHolder(port);
  throw new PortTakenError(portTakenMessage(what, port, holder ? describeHolder(holder) : 'a process this user cannot see', flag));
}

function printWelcome(stack: Stack, product: LocalProduct, operators: RealOperators | undefined, node: RunningNode | undefined): void {
  process.stdout.write(
    [
      '',
      'kubeairunway is running on a local stack (its servers are restarted if they die).',
      `  kubeconfig:   ${stack.kubeconfigPath}`,
      `  try:          kubectl --kubeconfig ${stack.kubeconfigPath} get namespaces`,
      `  Temporal UI:  ${stack.temporalUiUrl}`,
      `  Temporal:     ${stack.temporalAddress} (namespace ${stack.temporalNamespace})`,
      `  RabbitMQ:     ${stack.amqpUrl}`,
      `  webhook:      ${product.webhookUrl}`,
      `  metrics:      ${product.metricsUrl}`,
      ...(product.activatorUrl ? [`  activator:    ${product.activatorUrl}/<namespace>/<workload>/<path> (KybernateWorkloads: wakes them, holds the request)`] : []),
      `  health:       ${product.metricsUrl?.replace(/\/metrics$/, '/healthz')}`,
      `  logs:         ${stack.stateDir}/*.log`,
      operators
        ? `  operators:    real KubeRay and KEDA (logs: ${operators.operators.map((o) => o.logFile).join(', ')}); KAITO and Dynamo simulated`
        : '  operators:    simulated (KAITO, Dynamo, KubeRay); --real-operators runs the real KubeRay and KEDA ones',
      ...(node
        ? [
            `  node:         ${DEV_NODE_NAME}: the Kybernate node worker on the node container's containerd (${node.node.socket}, CRIU ${node.criuVersion ?? '?'}); checkpoints of pods with spec.nodeName ${DEV_NODE_NAME} run there`,
            `                DOCKER_HOST=${node.engine.host} docker exec ${node.node.container} ctr -a ${node.node.socket} -n k8s.io containers ls`,
          ]
        : ['  node:         none; --kybernate-node runs a Kybernate node container with a working CRIU (root, a private Docker engine)']),
      `  deploy:       kubectl --kubeconfig ${stack.kubeconfigPath} apply -f examples/gpu-vllm-dynamo.yaml`,
      `  watch:        kubectl --kubeconfig ${stack.kubeconfigPath} get md -w`,
      `  history:      node bin/kubeairunway.js history default/llama-8b --kubeconfig ${stack.kubeconfigPath}`,
      `                ${stack.temporalUiUrl}/namespaces/${stack.temporalNamespace}/workflows?query=${encodeURIComponent('MdName="llama-8b"')}`,
      `  flame:        kubectl --kubeconfig ${stack.kubeconfigPath} apply -f examples/flame-cluster.yaml && kubectl --kubeconfig ${stack.kubeconfigPath} get fc -w`,
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
}

/**
 * Resolves on the first SIGINT or SIGTERM and keeps handling later ones: a terminal's Ctrl-C reaches
 * every process of the group, and wrappers (npm, tsx) relay it once more, so a one-shot handler would
 * let the relayed copy kill this process before it stopped its children. Copies are not presses (see
 * InterruptCounter): a later press says how many more force, and that many kill the children at once.
 */
export function onInterrupt(onRepeat: (remaining: number) => void): Promise<void> {
  return new Promise((resolve) => {
    const counter = new InterruptCounter();
    const onSignal = () => {
      const interrupt = counter.signal(performance.now());
      if (interrupt.kind === 'stop') resolve();
      else if (interrupt.kind === 'repeat') onRepeat(interrupt.remaining);
      else if (interrupt.kind === 'force') {
        killAllNow();
        process.exit(130);
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
