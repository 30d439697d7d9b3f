// The one composition root: `run`, `dev` (and the bench and tests through dev's local product) describe
// the product they want as data, and this turns the description into the list of named parts started in
// order and stopped in reverse (worker/parts.ts). Before, `run` and `dev` each assembled the product in
// code and drifted apart (dev registered no search attributes, run's stops were unbounded, the gauges
// watched different namespaces); now a difference between them is a field of the description.

import type { KubeConfig } from '@kubernetes/client-node';
import { STEP_OUTCOMES } from '../kinds/index.ts';
import type { RunFlagValues } from '../kinds/kind-module.ts';
import { configuredParts, namesAPart } from '../kinds/run-flags.ts';
import { InformerSet } from '../kube/informer-set.ts';
import { createMetrics, startMetricsServer, stepObserver, watchDeployments, type ControllerMetrics } from '../observability/index.ts';
import type { HealthReport } from '../observability/metrics-server.ts';
import { watchTemporalLink, type TemporalLink } from '../observability/temporal-link.ts';
import { builtinProviders } from '../providers/index.ts';
import type { WebhookRegistration, WebhookServer } from '../webhook/index.ts';
import type { ReconcileSettings } from '../workflows/settings.ts';
import { startController, type Controller, type ControllerOptions } from './controller.ts';
import { boundHeapGrowth } from './heap-growth.ts';
import { listed, NOTHING_TO_STOP, startParts, type PartSpec } from './parts.ts';
import type { ProductLog } from './product-log.ts';
import { startPhases } from './start-phases.ts';
import { registerSearchAttributes } from './search-attributes.ts';
import type { GatewayDefaults } from '../activities/provider/gateway-lookup.ts';

/** The local stack's simulators, as the product starts them (what they simulate is theirs to say). */
export interface StartSimulators {
  start(on: { kc: KubeConfig; log: (line: string) => void; namespaces: readonly string[] | undefined }): Promise<{ stop(): Promise<void> }>;
}

export interface ProductDescription {
  kc: KubeConfig;
  /** The Temporal server; unused when only the webhook (or only simulators) run. */
  temporal: { address: string; namespace: string; connection?: ControllerOptions['temporalConnection'] };
  core: boolean;
  watcher: boolean;
  /** Names of built-in providers whose workers run here. */
  providers: readonly string[];
  /** Routing settings for the providers' activities (--gateway-* flags). */
  gateway?: GatewayDefaults;
  /** Namespaces the watcher, the gauges and the simulators watch; all when omitted. */
  namespaces?: readonly string[];
  settings?: Partial<ReconcileSettings>;
  /**
   * The values of the kind modules' flags (kinds/run-flags.ts), as `run` takes them: what their activities
   * connect to (`amqpUrl`) and which of their parts run beside the controller (`activatorPort`, `node`).
   */
  flags?: RunFlagValues;
  /** The core worker's sticky cache (workflows kept in memory); its default when omitted. */
  maxCachedWorkflows?: number;
  /** Serve Prometheus `/metrics` and `/healthz` here; no metrics at all when omitted. */
  metrics?: { port: number; host: string };
  /**
   * What `/healthz` reports down: each source's descriptions, and when asked the Temporal link and every
   * lost watch of the process's informers. Always healthy when omitted.
   */
  health?: { temporalLink?: boolean; watches?: boolean; sources?: readonly (() => string[])[] };
  /** Serve the admission webhook, its certificate Secret in `namespace`; registered with the API server when `register` is given. */
  webhook?: { namespace: string; host?: string; port?: number; register?: WebhookRegistration };
  /**
   * The local stack only: its simulated upstream operators and kubelet (devstack/simulators/start.ts),
   * started last. Handed in, not imported: the production root loads nothing of devstack/.
   */
  simulators?: StartSimulators;
  /** Prebuilt workflow code (tests share one bundle); bundled or loaded from the build otherwise. */
  workflowBundle?: ControllerOptions['workflowBundle'];
  heartbeatMs?: number;
  log: ProductLog;
  /** How long each part may take to stop before shutdown goes on without it. */
  stopWithinMs?: number;
}

export interface Product {
  /** Undefined when no controller part runs (the webhook alone). */
  controller: Controller | undefined;
  metricsUrl: string | undefined;
  webhookUrl: string | undefined;
  /** Where the kinds' parts that serve HTTP serve, by part name (`activator`). */
  served: Readonly<Record<string, string>>;
  /** The parts that started, in order. */
  parts: readonly string[];
  /** What `/healthz` reports. */
  health(): HealthReport;
  /** Stops the parts in reverse order, each within a bounded time. */
  stop(): Promise<void>;
}

/** What the parts started, for the parts after them and for the caller. */
interface Started {
  informers?: InformerSet;
  metrics?: ControllerMetrics;
  metricsUrl?: string;
  controller?: Controller;
  link?: TemporalLink;
  webhook?: WebhookServer;
  /** URLs of the kinds' parts, by name. */
  served: Record<string, string>;
}

export async function startProduct(d: ProductDescription): Promise<Product> {
  boundHeapGrowth();
  const started: Started = { served: {} };
  const running = await startParts(productParts(d, started), { log: d.log.records(), stopWithinMs: d.stopWithinMs });
  return {
    controller: started.controller,
    metricsUrl: started.metricsUrl,
    webhookUrl: started.webhook?.url,
    served: started.served,
    parts: running.names,
    health: () => health(d, started),
    stop: running.stop,
  };
}

/**
 * The parts a description asks for, in start order; nothing starts until a part's `start()` is called.
 * Later parts read what earlier ones left in `started`: the controller uses the informers and metrics.
 */
export function productParts(d: ProductDescription, started: Started = { served: {} }): PartSpec[] {
  const { log } = d;
  const flags = d.flags ?? {};
  const controllerRuns = d.core || d.watcher || d.providers.length > 0 || namesAPart(flags);
  const stepObservers = (provider?: string) => [stepObserver({ outcomes: STEP_OUTCOMES, metrics: started.metrics, logger: log.steps(provider ? `provider-${provider}` : 'core'), provider })];
  const parts: (PartSpec | false)[] = [
    // Before any workflow sets them. A provider alone starts no workflows.
    (d.core || d.watcher) && {
      name: 'search attributes',
      start: async () => (await registerSearchAttributes(d.temporal, log.records()), NOTHING_TO_STOP),
    },
    // The process's one cache: the controller's parts and the deployment gauges share its collections.
    controllerRuns && {
      name: 'informers',
      start: () => (started.informers = new InformerSet(d.kc, log.lines('informers'))),
    },
    d.metrics !== undefined && {
      name: 'metrics',
      start: async () => {
        const metrics = (started.metrics = createMetrics({ processMetrics: true }));
        // Deployment gauges come from the core's process only: a provider deployed alone may not list
        // ModelDeployments, and several processes exporting them would count each deployment twice.
        if (d.core || d.watcher) metrics.observeDeployments(watchDeployments({ informers: started.informers!, namespaces: d.namespaces }).deployments);
        const server = await startMetricsServer({
          registry: metrics.registry,
          port: d.metrics!.port,
          host: d.metrics!.host,
          onError: (err) => log.records().error({ err: err.message }, 'metrics scrape failed'),
          ...(d.health ? { health: () => health(d, started) } : {}),
        });
        started.metricsUrl = server.url;
        log.records().info({ url: server.url }, 'metrics endpoint serving');
        return server;
      },
    },
    controllerRuns && {
      name: 'controller',
      start: async () =>
        (started.controller = await startController({
          kc: d.kc,
          informers: started.informers,
          temporalAddress: d.temporal.address,
          temporalNamespace: d.temporal.namespace,
          ...(d.temporal.connection ? { temporalConnection: d.temporal.connection } : {}),
          core: d.core,
          watcher: d.watcher,
          providers: builtinProviders.filter((p) => d.providers.includes(p.name)),
          ...(d.gateway ? { gateway: d.gateway } : {}),
          settings: d.settings,
          namespaces: d.namespaces,
          flags,
          ...(d.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: d.maxCachedWorkflows } : {}),
          workflowBundle: d.workflowBundle,
          heartbeatMs: d.heartbeatMs,
          log: log.lines('controller'),
          sdkLogger: log.sdk(),
          timePhase: startPhases(log.records('controller')),
          // Each of its parts within the same bound as the product's.
          stopWithinMs: d.stopWithinMs,
          activityInterceptors: stepObservers,
        })),
    },
    // The kinds' parts (the activator, a node worker) after the controller, on its connection, client and
    // caches, so they stop before it.
    ...(controllerRuns ? configuredParts(flags) : []).map(
      (part): PartSpec => ({
        name: part.name,
        start: async () => {
          const { controller } = started;
          const running = await part.start({
            kc: d.kc,
            connection: controller!.connection,
            client: controller!.client,
            temporalNamespace: d.temporal.namespace,
            taskQueuePrefix: controller!.settings.taskQueuePrefix,
            informers: controller!.informers,
            namespaces: d.namespaces,
            activityInterceptors: stepObservers(),
            log: log.lines(part.name),
          });
          if (running.url) started.served[part.name] = running.url;
          return running;
        },
      }),
    ),
    // Lost and back said once each while the SDK reconnects by itself (its per-retry lines are dropped).
    // After the controller, so it stops before the controller closes its connection.
    controllerRuns && {
      name: 'temporal link',
      start: () => (started.link = watchTemporalLink({ address: d.temporal.address, ...(d.temporal.connection ? { connection: d.temporal.connection } : {}), log: log.lines('temporal') })),
    },
    d.webhook !== undefined && {
      name: 'webhook',
      start: async () => {
        // Loaded only when served: its certificate code (x509 and its ASN.1 schemas) takes about half a
        // second to load, which every controller process without a webhook would wait for at start.
        const { startWebhookServer } = await import('../webhook/index.ts');
        return (started.webhook = await startWebhookServer({
          kc: d.kc,
          namespace: d.webhook!.namespace,
          ...(d.webhook!.host !== undefined ? { host: d.webhook!.host } : {}),
          ...(d.webhook!.port !== undefined ? { port: d.webhook!.port } : {}),
          ...(d.webhook!.register ? { register: d.webhook!.register } : {}),
          log: log.records('webhook'),
        }));
      },
    },
    d.simulators !== undefined && {
      name: 'simulators',
      start: () => d.simulators!.start({ kc: d.kc, log: d.log.lines('simulators'), namespaces: d.namespaces }),
    },
  ];
  return listed(parts);
}

function health(d: ProductDescription, started: Started): HealthReport {
  const down = (d.health?.sources ?? []).flatMap((source) => source());
  if (d.health?.temporalLink && started.link?.down) down.push(`connection to the Temporal server at ${d.temporal.address}`);
  if (d.health?.watches) down.push(...(started.informers?.lost() ?? []));
  return { ok: down.length === 0, down };
}
