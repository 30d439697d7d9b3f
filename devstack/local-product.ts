import { KubeConfig } from '@kubernetes/client-node';
import { InformerSet } from '../kube/informer-set.ts';
import { builtinProviders } from '../providers/index.ts';
import { createLogger, createMetrics, startMetricsServer, stepObserver, watchDeployments } from '../observability/index.ts';
import type { HealthReport } from '../observability/metrics-server.ts';
import { watchTemporalLink } from '../observability/temporal-link.ts';
import { lineLogger, startWebhookServer } from '../webhook/index.ts';
import { startController, type Controller } from '../worker/controller.ts';
import type { ReconcileSettings } from '../workflows/settings.ts';
import { UPSTREAM_SCRIPTS } from './simulators/scripts.ts';
import { startSimulator } from './simulators/simulator.ts';
import { startPodReadinessSimulator } from './simulators/pod-readiness.ts';
import type { Stack } from './stack.ts';

export interface LocalProduct {
  kc: KubeConfig;
  controller: Controller;
  webhookUrl: string | undefined;
  metricsUrl: string | undefined;
  /** The stack's servers and this process's link to Temporal: what `/healthz` reports. */
  health(): HealthReport;
  /** Stops the parts in reverse order, each within a bounded time (the stack itself is the caller's). */
  stop(): Promise<void>;
}

/**
 * The whole product on a local stack: core worker, built-in provider workers, watcher, optionally the
 * admission webhook, the simulated upstream operators standing in for KAITO, Dynamo and KubeRay, and a
 * simulated kubelet that makes the pods of kinds like FlameCluster ready.
 */
export async function startLocalProduct(
  stack: Stack,
  opts: {
    webhook: boolean;
    simulatedReadyAfterMs: number;
    /** Serve the seed's Prometheus metrics on this port. */
    metricsPort?: number;
    settings?: Partial<ReconcileSettings>;
    log?: (line: string) => void;
  },
): Promise<LocalProduct> {
  const log = opts.log ?? (() => {});
  const kc = new KubeConfig();
  kc.loadFromFile(stack.kubeconfigPath);
  const metrics = opts.metricsPort !== undefined ? createMetrics({ processMetrics: true }) : undefined;
  // The process's one cache, shared by the controller's parts and the deployment gauges.
  const informers = new InformerSet(kc, log);
  if (metrics) metrics.observeDeployments(watchDeployments({ informers }).deployments);
  // Lost and back said once each, however long the Temporal server is away (the SDK retries by itself).
  const temporalLink = watchTemporalLink({ address: stack.temporalAddress, log });
  const health = (): HealthReport => {
    const down = stack.health().down.map((d) => `${d.name} (${d.reason} ${((Date.now() - d.since) / 1000).toFixed(0)}s ago; restarting)`);
    if (temporalLink.down) down.push(`connection to the Temporal server at ${stack.temporalAddress}`);
    return { ok: down.length === 0, down };
  };
  const metricsServer = metrics ? await startMetricsServer({ registry: metrics.registry, port: opts.metricsPort!, host: '127.0.0.1', health }) : undefined;
  // Step logs only for failures here; the console belongs to the person trying the product.
  const stepLogger = createLogger({ level: 'warn' });
  const controller = await startController({
    kc,
    temporalAddress: stack.temporalAddress,
    temporalNamespace: stack.temporalNamespace,
    informers,
    core: true,
    watcher: true,
    providers: builtinProviders,
    settings: opts.settings,
    activityInterceptors: (provider) => [stepObserver({ metrics, logger: stepLogger, provider })],
    log,
  });
  // Admission on the local API server too, so invalid specs fail at `kubectl apply` with the seed's messages.
  const webhook = opts.webhook ? await startWebhookServer({ kc, namespace: 'kubeairunway-system', register: {}, log: lineLogger(log) }) : undefined;
  // No GPUs or upstream operators here: simulated ones write the upstream status instead.
  // No kubelet either: the pods that kinds like FlameCluster create are made Running (or Failed) by one.
  const simulators = await Promise.all([
    ...UPSTREAM_SCRIPTS.map((script) => startSimulator(kc, script, { readyAfterMs: opts.simulatedReadyAfterMs, log })),
    startPodReadinessSimulator(kc, { readyAfterMs: opts.simulatedReadyAfterMs, log }),
  ]);
  return {
    kc,
    controller,
    webhookUrl: webhook?.url,
    metricsUrl: metricsServer?.url,
    health,
    async stop() {
      temporalLink.stop();
      await bounded('simulators', Promise.all(simulators.map((s) => s.stop())), log);
      if (webhook) await bounded('webhook', webhook.stop(), log);
      await bounded('controller', controller.stop(), log);
      if (metricsServer) await bounded('metrics', metricsServer.stop(), log);
      await bounded('informers', informers.stop(), log);
    },
  };
}

/** Waits for a part to stop, but not forever: shutdown must finish even when a server is already gone. */
async function bounded(what: string, stopping: Promise<unknown>, log: (line: string) => void, ms = 15_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  const result = await Promise.race([stopping.then(() => 'done' as const, (err: Error) => (log(`${what}: ${err.message}`), 'done' as const)), timeout]);
  clearTimeout(timer);
  if (result === 'timeout') log(`${what} did not stop within ${ms / 1000}s; going on`);
}
