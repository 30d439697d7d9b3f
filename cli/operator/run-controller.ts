// `kubeairunway run`: the controller against an existing cluster and Temporal server, with pino JSON
// logs, Prometheus metrics and, on request, the admission webhook. `startRun` starts everything and
// returns a handle (tests use it in-process); `runRun` adds the process concerns: the Temporal runtime
// logger and stopping cleanly on SIGTERM/SIGINT.

import { Connection } from '@temporalio/client';
import { Runtime, type WorkflowBundle } from '@temporalio/worker';
import { InformerSet } from '../../kube/informer-set.ts';
import { builtinProviders } from '../../providers/index.ts';
import { startWebhookServer, type WebhookServer } from '../../webhook/index.ts';
import { startController, type Controller } from '../../worker/controller.ts';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import { createLogger, createMetrics, lineLog, startMetricsServer, stepObserver, temporalLogger, watchDeployments, type Logger, type MetricsServer } from '../../observability/index.ts';
import { watchTemporalLink } from '../../observability/temporal-link.ts';
import { CliError } from '../errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { checkDuration, parseBoolean, parsePort, parseService, resolveParts, splitList } from './run-parts.ts';
import { ensureDeploymentSearchAttributes } from './search-attributes.ts';
import { firstLine, openKube } from './session.ts';
import { temporalConnectionSettings } from './temporal-connection.ts';

export interface RunOptions extends KubeOptions, TemporalOptions {
  core?: boolean;
  watcher?: boolean;
  providers?: string;
  namespaces?: string;
  enableProviderSelector: string | boolean;
  taskQueuePrefix: string;
  resyncPeriod?: string;
  cleanupTimeout?: string;
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
  namespaces: string[] | undefined;
  selector: boolean;
  settings: Partial<ReconcileSettings>;
  metricsPort: number;
  webhookPort: number;
  service: { namespace: string; name: string } | undefined;
}

export function planRun(opts: RunOptions): RunPlan {
  const namespaces = splitList(opts.namespaces);
  const selector = typeof opts.enableProviderSelector === 'boolean' ? opts.enableProviderSelector : parseBoolean(opts.enableProviderSelector);
  return {
    parts: resolveParts(opts),
    namespaces: namespaces.length > 0 ? namespaces : undefined,
    selector,
    settings: {
      providerSelectorEnabled: selector,
      taskQueuePrefix: opts.taskQueuePrefix,
      ...(opts.resyncPeriod ? { resyncPeriod: checkDuration(opts.resyncPeriod, '--resync-period') } : {}),
      ...(opts.cleanupTimeout ? { cleanupTimeout: checkDuration(opts.cleanupTimeout, '--cleanup-timeout') } : {}),
    },
    metricsPort: parsePort(opts.metricsPort, '--metrics-port'),
    webhookPort: parsePort(opts.webhookPort, '--webhook-port'),
    service: opts.webhookService ? parseService(opts.webhookService) : undefined,
  };
}

export async function startRun(opts: RunOptions, deps: RunDeps): Promise<RunningController> {
  const { logger } = deps;
  const { parts, namespaces, selector, settings, metricsPort, webhookPort, service } = planRun(opts);
  const kube = openKube(opts);
  const temporal = await temporalConnectionSettings(opts, deps.io);
  const tempConnection = { ...(temporal.tls !== undefined ? { tls: temporal.tls } : {}), ...(temporal.apiKey ? { apiKey: temporal.apiKey } : {}) };

  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err: Error) => logger.error({ err: err.message }, 'stopping failed'));
  };
  try {
    if (parts.core || parts.watcher) await registerSearchAttributes(temporal, tempConnection, logger);

    // The process's one cache: the controller's parts and the deployment gauges share its collections.
    const informers = new InformerSet(kube.kc, lineLog(logger, 'informers'));
    stops.push(() => informers.stop());
    const metrics = opts.metrics ? createMetrics({ processMetrics: true }) : undefined;
    let metricsServer: MetricsServer | undefined;
    if (metrics) {
      // Deployment gauges come from the core's process only: a provider deployed alone may not list
      // ModelDeployments, and several processes exporting them would count each deployment twice.
      if (parts.core || parts.watcher) metrics.observeDeployments(watchDeployments({ informers, namespaces }).deployments);
      metricsServer = await startMetricsServer({ registry: metrics.registry, port: metricsPort, host: opts.metricsAddress, onError: (err) => logger.error({ err: err.message }, 'metrics scrape failed') });
      stops.push(() => metricsServer!.stop());
      logger.info({ url: metricsServer.url }, 'metrics endpoint serving');
    }

    // The webhook alone needs no Temporal connection and starts no worker.
    let controller: Controller | undefined;
    if (parts.core || parts.watcher || parts.providers.length > 0) {
      try {
        controller = await startController({
          kc: kube.kc,
          informers,
          temporalAddress: temporal.address,
          temporalNamespace: temporal.namespace,
          temporalConnection: tempConnection,
          core: parts.core,
          watcher: parts.watcher,
          providers: builtinProviders.filter((p) => parts.providers.includes(p.name)),
          settings,
          namespaces,
          workflowBundle: deps.workflowBundle,
          heartbeatMs: deps.heartbeatMs,
          log: lineLog(logger, 'controller'),
          activityInterceptors: (provider) => [stepObserver({ metrics, logger: logger.child({ source: provider ? `provider-${provider}` : 'core' }), provider })],
        });
      } catch (err) {
        throw new CliError(`The controller could not start against Temporal at ${temporal.address}: ${firstLine((err as Error).message)}.`);
      }
      const started = controller;
      stops.push(() => started.stop());
      // Lost and back said once each while the SDK reconnects by itself (its per-retry lines are dropped).
      const link = watchTemporalLink({ address: temporal.address, connection: tempConnection, log: lineLog(logger, 'temporal') });
      stops.push(async () => link.stop());
    }

    let webhook: WebhookServer | undefined;
    if (parts.webhook) {
      webhook = await startWebhookServer({
        kc: kube.kc,
        namespace: opts.webhookNamespace,
        host: opts.webhookHost,
        port: webhookPort,
        ...(opts.webhookRegister ? { register: service ? { endpoint: { service: { ...service, port: 443 } } } : {} } : {}),
        log: logger.child({ source: 'webhook' }),
      });
      stops.push(() => webhook!.stop());
    }

    logger.info(
      {
        core: parts.core,
        watcher: parts.watcher,
        providers: parts.providers,
        namespaces: namespaces ?? 'all',
        providerSelector: selector,
        taskQueuePrefix: opts.taskQueuePrefix,
        temporal: `${temporal.address}/${temporal.namespace}`,
        kubernetes: kube.server,
        metrics: metricsServer?.url ?? null,
        webhook: webhook?.url ?? null,
      },
      'kubeairunway controller running',
    );
    return { controller, metricsUrl: metricsServer?.url, webhookUrl: webhook?.url, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function registerSearchAttributes(temporal: { address: string; namespace: string }, options: object, logger: Logger): Promise<void> {
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: temporal.address, ...options, connectTimeout: '10s' });
  } catch (err) {
    throw new CliError(`Cannot reach the Temporal server at ${temporal.address}: ${firstLine((err as Error).message)}. Pass --temporal-address (or set TEMPORAL_ADDRESS).`);
  }
  try {
    const added = await ensureDeploymentSearchAttributes(connection, temporal.namespace);
    if (added.length > 0) logger.info({ added }, 'registered search attributes');
  } catch (err) {
    logger.warn(
      { err: firstLine((err as Error).message) },
      'could not register the search attributes MdNamespace, MdName, MdProvider, MdPhase (Keyword); an administrator must add them to the Temporal namespace',
    );
  } finally {
    await connection.close();
  }
}

/** The command: logs through pino (the Temporal SDK's too), runs until SIGTERM or SIGINT, then stops cleanly. */
export async function runRun(io: CliIO, opts: RunOptions): Promise<ExitCode> {
  planRun(opts); // a flag mistake is reported before anything starts
  const logger = createLogger({ level: opts.logLevel });
  // Before any worker exists. Signals are ours to handle: the providers mark themselves not ready
  // before their workers stop, which the runtime's own signal handling would cut short.
  Runtime.install({
    logger: temporalLogger(logger),
    shutdownSignals: [],
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
  });
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
