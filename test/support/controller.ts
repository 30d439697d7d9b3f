import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { builtinProviders } from '../../providers/index.ts';
import type { ProviderDefinition } from '../../providers/contract.ts';
import { startController, type Controller } from '../../worker/controller.ts';
import { plainLog } from '../../worker/product-log.ts';
import { startProduct, type Product, type ProductDescription } from '../../worker/product.ts';
import { createLogger } from '../../observability/logger.ts';
import { BUNDLE_OPTIONS } from '../../worker/workflow-code.ts';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import { RESTORE_LABEL, WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import { kubeConfig, stackInfo, uniqueName } from './env.ts';

let bundle: Promise<WorkflowBundle> | undefined;
/** Bundling the workflow code takes seconds; a test file does it once. */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({ ...BUNDLE_OPTIONS, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never });
  return bundle;
}

/** Durations short enough for tests; everything else as in production. */
export const TEST_SETTINGS: Partial<ReconcileSettings> = {
  cleanupTimeout: '20s',
  resyncPeriod: '1m',
  retryDelay: '1s',
  maxRetryDelay: '5s',
  providerScheduleToStart: '5s',
  pollInterval: '1s',
};

/**
 * The product as `run --activator-port` composes it (worker/product.ts), for the Kybernate tests: core,
 * watcher and the activator (on a free loopback port) over the test's namespace, no providers, test
 * settings, silent logs. `extra` adds the rest: simulators, and `flags` as `run` takes them (the broker's
 * `amqpUrl`, a node worker's `node`, `nodeName`, `containerdSocket`), beside the activator's.
 */
export async function startTestProduct(namespace: string, taskQueuePrefix: string, { flags, ...extra }: Partial<ProductDescription> = {}): Promise<Product> {
  return startProduct({
    kc: kubeConfig(),
    temporal: { address: stackInfo().temporalAddress, namespace: stackInfo().temporalNamespace },
    core: true,
    watcher: true,
    providers: [],
    namespaces: [namespace],
    settings: { ...TEST_SETTINGS, taskQueuePrefix },
    flags: { activatorPort: 0, activatorAddress: '127.0.0.1', ...flags },
    workflowBundle: await workflowBundle(),
    log: plainLog(() => {}, { steps: createLogger({ level: 'silent' }) }),
    ...extra,
  });
}

export interface TestController {
  controller: Controller;
  taskQueuePrefix: string;
  stop(): Promise<void>;
}

export async function startTestController(opts: {
  namespaces: string[];
  settings?: Partial<ReconcileSettings>;
  providers?: readonly ProviderDefinition[];
  core?: boolean;
  watcher?: boolean;
  simulators?: boolean;
  /** API groups whose upstream operator the test runs for real (e.g. `ray.io`): not simulated. */
  realOperators?: readonly string[];
  taskQueuePrefix?: string;
  /** The providers' heartbeat (2 s unless told) and periodic CRD check (5 s unless told). */
  heartbeatMs?: number;
  providerCrdCheckMs?: number;
}): Promise<TestController> {
  const kc = kubeConfig();
  const taskQueuePrefix = opts.taskQueuePrefix ?? uniqueName('kar');
  const controller = await startController({
    kc,
    temporalAddress: stackInfo().temporalAddress,
    temporalNamespace: stackInfo().temporalNamespace,
    core: opts.core ?? true,
    watcher: opts.watcher ?? true,
    providers: opts.providers ?? builtinProviders,
    settings: { ...TEST_SETTINGS, ...opts.settings, taskQueuePrefix },
    namespaces: opts.namespaces,
    workflowBundle: await workflowBundle(),
    heartbeatMs: opts.heartbeatMs ?? 2_000,
    providerCrdPollMs: 1_000,
    ...(opts.providerCrdCheckMs !== undefined ? { providerCrdCheckMs: opts.providerCrdCheckMs } : {}),
    flags: { amqpUrl: stackInfo().amqpUrl },
  });
  const simulators: Simulator[] = [];
  if (opts.simulators ?? true) {
    // A real operator and a simulated one would fight over the same resource's status.
    for (const script of UPSTREAM_SCRIPTS.filter((s) => !opts.realOperators?.includes(s.group))) simulators.push(await startSimulator(kc, script, { readyAfterMs: 1_000 }));
    // Only the test's namespaces: files share one cluster, and another file's pods are not this one's to run.
    simulators.push(await startPodReadinessSimulator(kc, { readyAfterMs: 1_000, namespaces: opts.namespaces }));
    // And KybernateRestores' pods: no node runtime restores them here, the stand-in kubelet starts them.
    simulators.push(await startPodReadinessSimulator(kc, { readyAfterMs: 1_000, namespaces: opts.namespaces, labelSelector: RESTORE_LABEL }));
    // And KybernateWorkloads' pods.
    simulators.push(await startPodReadinessSimulator(kc, { readyAfterMs: 1_000, namespaces: opts.namespaces, labelSelector: WORKLOAD_LABEL }));
  }
  return {
    controller,
    taskQueuePrefix,
    async stop() {
      await Promise.all(simulators.map((s) => s.stop()));
      await controller.stop();
    },
  };
}
