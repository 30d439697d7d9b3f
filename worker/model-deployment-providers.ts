// ModelDeployment's providers as parts of the controller, gathered in one place as a kind module's
// parts are in its folder: the core's watch over their heartbeats, each provider's activities and
// resource watch, their workers and their registrations. The controller lists them where they belong in
// its start (worker/controller-parts.ts); what each one is and needs is said here.

import type { ProviderActivities } from '../contract/provider-activities.ts';
import { createProviderActivities } from '../activities/provider/create-provider-activities.ts';
import type { OwnedKind, ProviderDefinition } from '../providers/contract.ts';
import { PROVIDER_STALE_AFTER_MS } from '../providers/provider-liveness.ts';
import { modelDeploymentKind } from '../watcher/kinds/model-deployment.ts';
import { OwnerSignals } from '../watcher/owner-signals.ts';
import { watchProviderResources } from '../watcher/provider-resource-watch.ts';
import { createSignaler } from '../watcher/signaler.ts';
import type { ControllerContext } from './controller-context.ts';
import { Later, PartOrderError, startTogether, type PartSpec, type RunningParts } from './parts.ts';
import { createProviderWorker } from './provider-worker.ts';
import { watchProviderLiveness } from './provider-liveness.ts';
import { registerProvider } from './registration.ts';
import { routeWatchKinds } from './route-watch.ts';
import { ServedWorker } from './served-worker.ts';
import { UNTIMED } from './start-phases.ts';

/** What every provider's resource watch shares. */
interface ProviderSignals {
  owners: OwnerSignals;
  /** Kinds every provider's watch follows beside its own (HTTPRoutes, when the Gateway API is installed). */
  routeKinds: readonly OwnedKind[];
}

export class ModelDeploymentProviders {
  /** Each provider's activities, made once: served on its task queue, and by the core worker when both run here. */
  readonly activities: Record<string, ProviderActivities> = {};
  private readonly signals = new Later<ProviderSignals>("the providers' owner signals");

  constructor(private readonly ctx: ControllerContext) {}

  private get providers(): readonly ProviderDefinition[] {
    return this.ctx.opts.providers;
  }

  /** The core's watch over the providers' heartbeats: a config whose worker stopped reporting is marked not ready. */
  livenessPart(): PartSpec {
    const { opts, informers, log } = this.ctx;
    return {
      name: 'provider liveness',
      start: () => watchProviderLiveness({ kc: opts.kc, informers, staleAfterMs: opts.providerStaleAfterMs ?? PROVIDER_STALE_AFTER_MS, log }),
    };
  }

  /** The signals every provider's watch sends, then each provider's activities and resource watch; none without providers. */
  resourceParts(): PartSpec[] {
    if (this.providers.length === 0) return [];
    return [this.signalsPart(), ...this.providers.map((provider) => this.providerPart(provider))];
  }

  private signalsPart(): PartSpec {
    const { opts, settings, temporal, log } = this.ctx;
    return {
      name: 'provider signals',
      start: async () => {
        const routeKinds = await routeWatchKinds(opts.kc, log);
        // Provider resource changes wake the owning deployment's workflow (signal only, never start).
        const deliver = createSignaler(temporal.get().client, { ...opts.settings, taskQueuePrefix: settings.taskQueuePrefix });
        const owners = this.signals.set({ owners: new OwnerSignals(deliver, modelDeploymentKind, log), routeKinds }).owners;
        return { stop: () => owners.stop() };
      },
    };
  }

  private providerPart(provider: ProviderDefinition): PartSpec {
    const { opts, informers, log } = this.ctx;
    const kind = provider.resource.kind;
    return {
      name: `provider ${provider.name}`,
      start: () => {
        const { owners, routeKinds } = this.signals.get();
        this.activities[provider.name] = createProviderActivities(provider, {
          kc: opts.kc,
          informers,
          // Our own write's or deletion's echo from the resource watch is not news: the workflow that made it knows.
          wrote: (stored) => owners.wrote(kind, stored),
          expectRemoval: (obj) => owners.expectRemoval(kind, obj),
          ...(opts.gateway ? { gateway: opts.gateway } : {}),
        });
        return watchProviderResources({
          kc: opts.kc,
          informers,
          resource: provider.resource,
          onChange: (obj, reason) => owners.changed(kind, obj, reason),
          // The deployments' HTTPRoutes too, when the Gateway API is installed: a Gateway accepting or refusing one is news.
          related: [...(provider.statusReads ?? []), ...routeKinds],
          // A pod's change wakes the deployment that owns the provider resource of the same deployment label.
          onRelatedChange: (relatedKind, obj, reason, resource) => {
            const owner = owners.controllerOf(resource);
            if (owner) owners.changed(relatedKind, obj, reason, owner);
          },
          crdPollMs: opts.providerCrdPollMs,
          log,
        });
      },
    };
  }

  /**
   * The providers' workers, created side by side and not yet run: `served` gets them, run once every
   * wait of the start is done. One that fails to be created leaves the others released.
   */
  workersPart(served: ServedWorker[]): PartSpec {
    const { opts, settings, temporal, log } = this.ctx;
    const create = (provider: ProviderDefinition): PartSpec => ({
      name: `provider ${provider.name} worker`,
      start: async () => {
        const worker = await createProviderWorker({
          connection: temporal.get().connection,
          namespace: opts.temporalNamespace,
          provider,
          activities: this.activitiesOf(provider),
          taskQueuePrefix: settings.taskQueuePrefix,
          activityInterceptors: opts.activityInterceptors?.(provider.name),
        });
        const providerWorker = new ServedWorker(worker, worker.options.taskQueue, log);
        served.push(providerWorker);
        return providerWorker;
      },
    });
    return { name: 'provider workers', start: () => this.sideBySide(this.providers.map(create)) };
  }

  /**
   * Each provider applies its config and heartbeats it ready; stopping writes it not ready. Registered
   * side by side, and undone together: one that fails to register leaves none of the others saying ready.
   */
  registrationPart(): PartSpec {
    const { opts, informers, log } = this.ctx;
    const register = (provider: ProviderDefinition): PartSpec => ({
      name: `provider ${provider.name} registration`,
      start: () => registerProvider(opts.kc, provider, { heartbeatMs: opts.heartbeatMs, crdCheckMs: opts.providerCrdCheckMs, informers, log }),
    });
    return {
      name: 'provider registration',
      start: () => this.sideBySide(this.providers.map(register)),
    };
  }

  /** One part per provider, started side by side; timed as one step (the controller's start phases name it so). */
  private sideBySide(parts: readonly PartSpec[]): Promise<RunningParts> {
    return startTogether(parts, { ...this.ctx.parts, timePhase: UNTIMED });
  }

  private activitiesOf(provider: ProviderDefinition): ProviderActivities {
    const activities = this.activities[provider.name];
    if (!activities) throw new PartOrderError(`provider ${provider.name}'s activities`);
    return activities;
  }
}
