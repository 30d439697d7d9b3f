// `kubeairunway run`: the controller against an existing cluster and Temporal server, with pino JSON
// logs, Prometheus metrics and, on request, the admission webhook. `describeRun` turns the flags into a
// product description, which the composition root (worker/product.ts) starts as it starts `dev`'s;
// `startRun` returns a handle (tests use it in-process); `runRun` adds the process concerns: the
// Temporal runtime logger and stopping cleanly on SIGTERM/SIGINT.

import type { KubeConfig } from '@kubernetes/client-node';
import { Runtime, type WorkflowBundle } from '@temporalio/worker';
import type { RunFlagValues } from '../../kinds/kind-module.ts';
import { configuredParts, namesAPart, partSwitches, runFlags } from '../../kinds/run-flags.ts';
import { createLogger, type Logger } from '../../observability/index.ts';
import type { Controller } from '../../worker/controller.ts';
import { PartStartError } from '../../worker/parts.ts';
import { jsonLog } from '../../worker/product-log.ts';
import { installRuntime } from '../../worker/runtime.ts';
import { startProduct, type ProductDescription } from '../../worker/product.ts';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { checkDuration, gatewayDefaults, kindFlagValues, parseBoolean, parseCount, parsePort, parseService, resolveParts, splitList } from './run-parts.ts';
import type { GatewayDefaults } from '../../activities/provider/gateway-lookup.ts';
import { firstLine, openKube } from './session.ts';
import { temporalConnectionSettings, type TemporalConnectionSettings } from './temporal-connection.ts';
import { messageOf } from '../../contract/failure-types.ts';

export interface RunOptions extends KubeOptions, TemporalOptions {
  core?: boolean;
  watcher?: boolean;
  providers?: string;
  namespaces?: string;
  enableProviderSelector: string | boolean;
  taskQueuePrefix: string;
  resyncPeriod?: string;
  cleanupTimeout?: string;
  gatewayName?: string;
  gatewayNamespace?: string;
  gatewayBackend?: string;
  endpointPicker?: string;
  workflowCache?: string;
  metrics: boolean;
  metricsPort: string;
  metricsAddress: string;
  webhook?: boolean;
  webhookHost: string;
  webhookPort: string;
  webhookNamespace: string;
  webhookService?: string;
  webhookRegister: boolean;
  logLevel: string;
  /** The kind modules' flags (`--amqp-url`, `--activator-port`, `--node` …: kinds/run-flags.ts), by value name. */
  [kindFlag: string]: unknown;
}

export interface RunningController {
  /** Undefined when only the webhook runs. */
  controller: Controller | undefined;
  metricsUrl: string | undefined;
  webhookUrl: string | undefined;
  stop(): Promise<void>;
}

export interface RunDeps {
  io: Pick<CliIO, 'readFile'>;
  logger: Logger;
  /** A prebuilt workflow bundle (tests share one); bundled at start otherwise. */
  workflowBundle?: WorkflowBundle;
  heartbeatMs?: number;
}

/** Everything the flags say, checked before anything starts. */
export interface RunPlan {
  parts: ReturnType<typeof resolveParts>;
  /** The kind modules' flags, checked, for their activities and parts. */
  flags: RunFlagValues;
  /** The kinds' parts those flags start beside the controller, by name. */
  kindParts: string[];
  namespaces: string[] | undefined;
  selector: boolean;
  settings: Partial<ReconcileSettings>;
  gateway: GatewayDefaults;
  metricsPort: number;
  workflowCache: number | undefined;
  webhookPort: number;
  service: { namespace: string; name: string } | undefined;
}

export function planRun(opts: RunOptions): RunPlan {
  const namespaces = splitList(opts.namespaces);
  const selector = typeof opts.enableProviderSelector === 'boolean' ? opts.enableProviderSelector : parseBoolean(opts.enableProviderSelector);
  const flags = kindFlagValues(opts, runFlags());
  const parts = resolveParts(opts, partSwitches(flags));
  const controllerRuns = parts.core || parts.watcher || parts.providers.length > 0 || namesAPart(flags);
  return {
    parts,
    flags,
    kindParts: controllerRuns ? kindPartNames(flags) : [],
    namespaces: namespaces.length > 0 ? namespaces : undefined,
    selector,
    settings: {
      providerSelectorEnabled: selector,
      taskQueuePrefix: opts.taskQueuePrefix,
      ...(opts.resyncPeriod ? { resyncPeriod: checkDuration(opts.resyncPeriod, '--resync-period') } : {}),
      ...(opts.cleanupTimeout ? { cleanupTimeout: checkDuration(opts.cleanupTimeout, '--cleanup-timeout') } : {}),
    },
    gateway: gatewayDefaults(opts),
    metricsPort: parsePort(opts.metricsPort, '--metrics-port'),
    workflowCache: opts.workflowCache !== undefined ? parseCount(opts.workflowCache, '--workflow-cache') : undefined,
    webhookPort: parsePort(opts.webhookPort, '--webhook-port'),
    service: opts.webhookService ? parseService(opts.webhookService) : undefined,
  };
}

export async function startRun(opts: RunOptions, deps: RunDeps): Promise<RunningController> {
  const { logger } = deps;
  const plan = planRun(opts);
  const kube = openKube(opts);
  const temporal = await temporalConnectionSettings(opts, deps.io);
  const product = await startProduct(describeRun(opts, plan, { kc: kube.kc, temporal, ...deps })).catch((err: unknown) => {
    throw explainStartFailure(err, temporal.address);
  });
  const { parts, namespaces } = plan;
  logger.info(
    {
      core: parts.core,
      watcher: parts.watcher,
      providers: parts.providers,
      namespaces: namespaces ?? 'all',
      providerSelector: plan.selector,
      taskQueuePrefix: opts.taskQueuePrefix,
      temporal: `${temporal.address}/${temporal.namespace}`,
      kubernetes: kube.server,
      metrics: product.metricsUrl ?? null,
      webhook: product.webhookUrl ?? null,
      kindParts: plan.kindParts,
      served: product.served,
    },
    'kubeairunway controller running',
  );
  return { controller: product.controller, metricsUrl: product.metricsUrl, webhookUrl: product.webhookUrl, stop: product.stop };
}

/** The product `run` starts, from its flags: everything here is data; worker/product.ts starts it. */
export function describeRun(
  opts: RunOptions,
  plan: RunPlan,
  deps: Pick<RunDeps, 'logger' | 'workflowBundle' | 'heartbeatMs'> & { kc: KubeConfig; temporal: TemporalConnectionSettings },
): ProductDescription {
  const { parts, service } = plan;
  const { temporal } = deps;
  return {
    kc: deps.kc,
    temporal: {
      address: temporal.address,
      namespace: temporal.namespace,
      connection: { ...(temporal.tls !== undefined ? { tls: temporal.tls } : {}), ...(temporal.apiKey ? { apiKey: temporal.apiKey } : {}) },
    },
    core: parts.core,
    watcher: parts.watcher,
    providers: parts.providers,
    namespaces: plan.namespaces,
    settings: plan.settings,
    gateway: plan.gateway,
    flags: plan.flags,
    ...(plan.workflowCache !== undefined ? { maxCachedWorkflows: plan.workflowCache } : {}),
    ...(opts.metrics ? { metrics: { port: plan.metricsPort, host: opts.metricsAddress } } : {}),
    ...(parts.webhook
      ? {
          webhook: {
            namespace: opts.webhookNamespace,
            host: opts.webhookHost,
            port: plan.webhookPort,
            // Behind a Service in a cluster; at its own URL otherwise.
            ...(opts.webhookRegister ? { register: service ? { endpoint: { service: { ...service, port: 443 } } } : {} } : {}),
          },
        }
      : {}),
    workflowBundle: deps.workflowBundle,
    heartbeatMs: deps.heartbeatMs,
    log: jsonLog(deps.logger),
  };
}

/** A part that could not reach Temporal, said as what to do about it; anything else as it was thrown. */
function explainStartFailure(err: unknown, address: string): unknown {
  if (!(err instanceof PartStartError)) return err;
  const reason = firstLine(err.cause.message);
  if (err.part === 'search attributes') return new CliError(`Cannot reach the Temporal server at ${address}: ${reason}. Pass --temporal-address (or set TEMPORAL_ADDRESS).`);
  if (err.part === 'controller') return new CliError(`The controller could not start against Temporal at ${address}: ${reason}.`);
  return err.cause;
}

/** The command: logs through pino (the Temporal SDK's too), runs until SIGTERM or SIGINT, then stops cleanly. */
export async function runRun(io: CliIO, opts: RunOptions): Promise<ExitCode> {
  planRun(opts); // a flag mistake is reported before anything starts
  const logger = createLogger({ level: opts.logLevel });
  // From the process's start (node's time origin) to here: node itself and the modules it loaded.
  logger.info({ phase: 'process and modules', ms: Math.round(performance.now()) }, 'start phase');
  // Before any worker exists. Signals are ours to handle: the providers mark themselves not ready
  // before their workers stop, which the runtime's own signal handling would cut short.
  installRuntime(logger, { shutdownSignals: [] });
  try {
    const running = await startRun(opts, { io, logger });
    const signal = await untilSignal(() => logger.warn('still stopping; a third signal exits at once'));
    logger.info({ signal }, 'stopping');
    await running.stop();
    logger.info('stopped');
    return 0;
  } finally {
    // The native runtime would keep the process alive after an error.
    await Runtime.instance()
      .shutdown()
      .catch(() => undefined);
    logger.flush();
  }
}

/** Resolves on the first SIGTERM/SIGINT; later ones report, and a third exits at once. */
function untilSignal(onRepeat: () => void): Promise<string> {
  return new Promise((resolve) => {
    let count = 0;
    const handler = (signal: string) => {
      count++;
      if (count === 1) resolve(signal);
      else if (count === 2) onRepeat();
      else process.exit(130);
    };
    process.on('SIGTERM', handler);
    process.on('SIGINT', handler);
  });
}

/** The kinds' parts the flags start (a part's objection to its flags said as the command's error). */
function kindPartNames(flags: RunFlagValues): string[] {
  try {
    return configuredParts(flags).map((p) => p.name);
  } catch (err) {
    throw new CliError(messageOf(err));
  }
}
