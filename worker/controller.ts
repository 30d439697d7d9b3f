import type { KubeConfig } from '@kubernetes/client-node';
import { Client, type TLSConfig } from '@temporalio/client';
import { NativeConnection, type ActivityInterceptorsFactory, type Worker, type WorkerOptions } from '@temporalio/worker';
import type { ProviderDefinition } from '../providers/contract.ts';
import { modelDeploymentKind } from '../watcher/kinds/model-deployment.ts';
import { OwnerSignals } from '../watcher/owner-signals.ts';
import { watchProviderResources } from '../watcher/provider-resource-watch.ts';
import { createSignaler } from '../watcher/signaler.ts';
import type { WatchedKind } from '../watcher/watched-kind.ts';
import { startWatcher, type Watcher } from '../watcher/watcher.ts';
import { DEFAULT_SETTINGS, type ReconcileSettings } from '../workflows/settings.ts';
import { PROVIDER_CONFIGS } from '../api/constants.ts';
import type { RunFlagValues } from '../kinds/kind-module.ts';
import { KINDS } from './kinds.ts';
import { InformerSet } from '../kube/informer-set.ts';
import { registerProvider } from './registration.ts';
import { watchProviderLiveness } from './provider-liveness.ts';
import { PROVIDER_STALE_AFTER_MS } from '../providers/provider-liveness.ts';
import { installRuntime } from './runtime.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { createCoreWorker } from './core-worker.ts';
import { createProviderWorker } from './provider-worker.ts';
import { createProviderActivities } from '../activities/provider/create-provider-activities.ts';
import type { GatewayDefaults } from '../activities/provider/gateway-lookup.ts';
import { routeWatchKinds } from './route-watch.ts';
import { UNTIMED, type TimePhase } from './start-phases.ts';

export interface ControllerOptions {
  kc: KubeConfig;
  temporalAddress: string;
  temporalNamespace: string;
  /** TLS (mTLS client certificate, CA, server name) and API key for the Temporal server; plain gRPC when omitted. */
  temporalConnection?: { tls?: TLSConfig | boolean; apiKey?: string };
  /** Which parts run in this process (a provider can be deployed alone). */
  core: boolean;
  watcher: boolean;
  providers: readonly ProviderDefinition[];
  /** The values of the kind modules' flags (`amqpUrl`), for their activities. */
  flags?: RunFlagValues;
  /** The core worker's sticky cache size; MAX_CACHED_WORKFLOWS when omitted. */
  maxCachedWorkflows?: number;
  /** The kinds this process's core and watcher reconcile; every registered kind when omitted. */
  kinds?: readonly WatchedKind[];
  settings?: Partial<ReconcileSettings>;
  /** The process's shared informers, when other parts of the process read them too: the controller starts the set, the caller stops it. A set of its own otherwise. */
  informers?: InformerSet;
  /** Namespaces the watcher watches; all when omitted. */
  namespaces?: readonly string[];
  /** Prebuilt workflow code: a bundle in memory (tests share one) or a bundle file. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  heartbeatMs?: number;
  /** The core marks a provider not ready once its heartbeat is older than this (PROVIDER_STALE_AFTER_MS unless told). */
  providerStaleAfterMs?: number;
  /** How often a provider looks for its CRD while it is not installed (its resource watch starts then). */
  providerCrdPollMs?: number;
  /**
   * How often a provider re-reads its CRD for its registration's `upstreamCRDVersion`, besides
   * reporting every change its watch of the CRD sees at once (worker/registration.ts); 5 s by default.
   */
  providerCrdCheckMs?: number;
  log?: (line: string) => void;
  /** The Temporal SDK's records (its core's lines among them), as JSON, when this process installs the SDK's runtime; WARN and up on standard output when omitted. */
  sdkLogger?: Logger;
  /** Routing settings (--gateway-* flags) for every provider's activities. */
  gateway?: GatewayDefaults;
  /** Activity interceptors per worker (metrics, step logs); `provider` is undefined for the core worker. */
  activityInterceptors?: (provider: string | undefined) => ActivityInterceptorsFactory[];
  /** Times each step of the start (worker/start-phases.ts); untimed when omitted. */
  timePhase?: TimePhase;
}

export interface Controller {
  settings: ReconcileSettings;
  client: Client;
  /** Its connection to Temporal: the kinds' parts run their workers on it (worker/product.ts). */
  connection: NativeConnection;
  /** The process's informers (the caller's when it handed them in). */
  informers: InformerSet;
  /** Stops everything; providers mark themselves not ready first. */
  stop(): Promise<void>;
}

/** One process of the product: any subset of the core worker, the provider workers and the watcher. */
export async function startController(opts: ControllerOptions): Promise<Controller> {
  const log = opts.log ?? (() => {});
  const phase = opts.timePhase ?? UNTIMED;
  const settings: ReconcileSettings = { ...DEFAULT_SETTINGS, ...opts.settings };
  installRuntime(opts.sdkLogger ?? createLogger({ level: 'warn' }));
  // One native (Rust) connection for the workers and the client: cheaper than a second, JavaScript
  // gRPC connection, and what eager workflow start requires.
  const nativeConnection = await phase('temporal connection', () => NativeConnection.connect({ address: opts.temporalAddress, ...opts.temporalConnection }));
  const client = new Client({ connection: nativeConnection, namespace: opts.temporalNamespace });
  const stops: (() => Promise<void>)[] = [];
  // One cache per process, as controller-runtime's manager has: the watcher's handlers and every
  // activity's reads share each collection's single list and watch.
  const informers = opts.informers ?? new InformerSet(opts.kc, log);

  const kinds = opts.kinds ?? KINDS;
  // Provider resource changes wake the owning deployment's workflow (signal only, never start).
  const deliver = createSignaler(client, { ...opts.settings, taskQueuePrefix: settings.taskQueuePrefix });
  const ownerSignals = new OwnerSignals(deliver, modelDeploymentKind, log);
  // Each provider's activities, made once: served on its task queue, and by the core worker when both run here.
  const providerActivities = Object.fromEntries(
    opts.providers.map((provider) => [
      provider.name,
      // Our own write's or deletion's echo from the resource watch is not news: the workflow that made it knows.
      createProviderActivities(provider, {
        kc: opts.kc,
        informers,
        wrote: (stored) => ownerSignals.wrote(provider.resource.kind, stored),
        expectRemoval: (obj) => ownerSignals.expectRemoval(provider.resource.kind, obj),
        ...(opts.gateway ? { gateway: opts.gateway } : {}),
      }),
    ]),
  );
  // What the kinds' activities factories opened (AsyncActors' broker), closed once the workers have stopped.
  const closeAfterWorkers: (() => Promise<void>)[] = [];
  if (opts.core) {
    // The core's activities read every kind's objects and children from these caches.
    for (const kind of kinds) {
      for (const namespace of opts.namespaces ?? [undefined]) {
        informers.collection(kind.kind, { ...kind.collection, namespace });
        for (const child of kind.children ?? []) informers.collection(`${kind.kind} ${child.plural}`, { ...child, namespace });
      }
    }
    informers.collection('InferenceProviderConfig', PROVIDER_CONFIGS);
    const liveness = watchProviderLiveness({ kc: opts.kc, informers, staleAfterMs: opts.providerStaleAfterMs ?? PROVIDER_STALE_AFTER_MS, log });
    stops.push(() => liveness.stop());
  }

  const routeKinds = opts.providers.length > 0 ? await routeWatchKinds(opts.kc, log) : [];
  for (const provider of opts.providers) {
    const watch = watchProviderResources({
      kc: opts.kc,
      informers,
      resource: provider.resource,
      onChange: (obj, reason) => ownerSignals.changed(provider.resource.kind, obj, reason),
      // The deployments' HTTPRoutes too, when the Gateway API is installed: a Gateway accepting or refusing one is news.
      related: [...(provider.statusReads ?? []), ...routeKinds],
      // A pod's change wakes the deployment that owns the provider resource of the same deployment label.
      onRelatedChange: (kind, obj, reason, resource) => {
        const owner = ownerSignals.controllerOf(resource);
        if (owner) ownerSignals.changed(kind, obj, reason, owner);
      },
      crdPollMs: opts.providerCrdPollMs,
      log,
    });
    stops.push(() => watch.stop());
  }
  // The watcher's handlers are registered before the informers start, so the first lists reach them.
  let watcher: Watcher | undefined;
  if (opts.watcher) {
    watcher = startWatcher({ informers, client, kinds, settings: { ...opts.settings, taskQueuePrefix: settings.taskQueuePrefix }, namespaces: opts.namespaces, eagerStart: opts.core, log });
  }

  // Four waits on four different things, side by side rather than one after another (they were most
  // of a start's time): the core worker loads its workflow code into a thread of its own, the provider
  // workers register with Temporal, the providers apply their configs, and the informers make their
  // first lists. A workflow the watcher starts meanwhile waits on its task queue until the workers run.
  const coreWorker = opts.core
    ? phase('core worker', () =>
        createCoreWorker({
          connection: nativeConnection,
          namespace: opts.temporalNamespace,
          kc: opts.kc,
          informers,
          taskQueuePrefix: settings.taskQueuePrefix,
          workflowBundle: opts.workflowBundle,
          activityInterceptors: opts.activityInterceptors?.(undefined),
          flags: opts.flags,
          onStop: (close) => closeAfterWorkers.push(close),
          inProcessProviders: providerActivities,
          ...(opts.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: opts.maxCachedWorkflows } : {}),
        }),
      )
    : undefined;
  const providerWorkers = phase('provider workers', () =>
    Promise.all(
      opts.providers.map((provider) =>
        createProviderWorker({
          connection: nativeConnection,
          namespace: opts.temporalNamespace,
          provider,
          activities: providerActivities[provider.name]!,
          taskQueuePrefix: settings.taskQueuePrefix,
          activityInterceptors: opts.activityInterceptors?.(provider.name),
        }),
      ),
    ),
  );
  const registering = phase('provider registration', () =>
    Promise.all(opts.providers.map((provider) => registerProvider(opts.kc, provider, { heartbeatMs: opts.heartbeatMs, crdCheckMs: opts.providerCrdCheckMs, informers, log }))),
  );
  const [core, providers, registrations] = await Promise.all([coreWorker, providerWorkers, registering, phase('informer sync', () => informers.start())]);
  const workers: Worker[] = [...(core ? [core] : []), ...providers];

  const runs = workers.map((w) =>
    w.run().catch((err: Error) => {
      log(`worker on ${w.options.taskQueue} stopped with an error: ${err.message}`);
    }),
  );
  log(`controller running: ${[opts.core && 'core', opts.watcher && 'watcher', ...opts.providers.map((p) => `provider ${p.name}`)].filter(Boolean).join(', ')}`);

  return {
    settings,
    client,
    connection: nativeConnection,
    informers,
    async stop() {
      await Promise.all(registrations.map((r) => r.stop()));
      await watcher?.stop();
      ownerSignals.stop();
      await Promise.all(stops.map((s) => s()));
      if (!opts.informers) await informers.stop();
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await Promise.all(runs);
      await Promise.all(closeAfterWorkers.map((close) => close()));
      await nativeConnection.close();
    },
  };
}
