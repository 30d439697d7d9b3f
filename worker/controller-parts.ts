// The controller's parts in start order; it stops them in reverse, each within a bound, and a part that
// fails to start stops the ones before it (worker/parts.ts). Nothing starts until a part's `start()` is
// called, so the list itself is plain data: which parts a subset of core, watcher and providers runs.

import { NativeConnection } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { PROVIDER_CONFIGS } from '../api/constants.ts';
import { startWatcher } from '../watcher/watcher.ts';
import type { ControllerContext } from './controller-context.ts';
import { createCoreWorker } from './core-worker.ts';
import { ModelDeploymentProviders } from './model-deployment-providers.ts';
import { listed, NOTHING_TO_STOP, startTogether, type PartSpec } from './parts.ts';
import { ServedWorker } from './served-worker.ts';

export function controllerParts(ctx: ControllerContext): PartSpec[] {
  const { opts } = ctx;
  const providers = new ModelDeploymentProviders(ctx);
  return listed([
    temporalConnectionPart(ctx),
    informersPart(ctx),
    opts.core && providers.livenessPart(),
    ...providers.resourceParts(),
    opts.watcher && watcherPart(ctx),
    workersPart(ctx, providers),
  ]);
}

function temporalConnectionPart({ opts, temporal }: ControllerContext): PartSpec {
  return {
    name: 'temporal connection',
    start: async () => {
      // One native (Rust) connection for the workers and the client: cheaper than a second, JavaScript
      // gRPC connection, and what eager workflow start requires.
      const connection = await NativeConnection.connect({ address: opts.temporalAddress, ...opts.temporalConnection });
      temporal.set({ connection, client: new Client({ connection, namespace: opts.temporalNamespace }) });
      // Closed last: every part after this one uses it.
      return { stop: () => connection.close() };
    },
  };
}

/** The process's caches: the collections the core reads are declared here; their first lists are made with the workers. */
function informersPart({ opts, kinds, informers, ownInformers }: ControllerContext): PartSpec {
  return {
    name: 'informers',
    start: () => {
      if (opts.core) {
        // The core's activities read every kind's objects and children from these caches.
        for (const kind of kinds) {
          for (const namespace of opts.namespaces ?? [undefined]) {
            informers.collection(kind.kind, { ...kind.collection, namespace });
            for (const child of kind.children ?? []) informers.collection(`${kind.kind} ${child.plural}`, { ...child, namespace });
          }
        }
        informers.collection('InferenceProviderConfig', PROVIDER_CONFIGS);
      }
      // The controller starts a set it was handed; the caller stops it.
      return ownInformers ? informers : NOTHING_TO_STOP;
    },
  };
}

function watcherPart({ opts, settings, kinds, informers, temporal, log }: ControllerContext): PartSpec {
  return {
    name: 'watcher',
    // Its handlers are registered before the informers start, so the first lists reach them.
    start: () =>
      startWatcher({
        informers,
        client: temporal.get().client,
        kinds,
        settings: { ...opts.settings, taskQueuePrefix: settings.taskQueuePrefix },
        namespaces: opts.namespaces,
        eagerStart: opts.core,
        log,
      }),
  };
}

/**
 * Four waits on four different things, side by side rather than one after another (they were most of a
 * start's time): the core worker loads its workflow code into a thread of its own, the provider workers
 * register with Temporal, the providers apply their configs, and the informers make their first lists.
 * A workflow the watcher starts meanwhile waits on its task queue until the workers run, which they do
 * once all four are done.
 */
function workersPart(ctx: ControllerContext, providers: ModelDeploymentProviders): PartSpec {
  return {
    name: 'workers',
    start: async () => {
      const served: ServedWorker[] = [];
      const running = await startTogether(workerWaits(ctx, providers, served), ctx.parts);
      for (const worker of served) worker.run();
      return running;
    },
  };
}

/**
 * What the workers part waits on side by side; the workers it creates go to `served`. Listed so that
 * their stop, in reverse, has the providers mark themselves not ready first, then shuts the provider
 * workers and the core worker down; the first lists stop nothing (the informers part stops the set).
 */
export function workerWaits(ctx: ControllerContext, providers: ModelDeploymentProviders, served: ServedWorker[]): PartSpec[] {
  const { opts, informers } = ctx;
  return listed([
    { name: 'informer sync', start: async () => (await informers.start(), NOTHING_TO_STOP) },
    opts.core && coreWorkerPart(ctx, providers, served),
    opts.providers.length > 0 && providers.workersPart(served),
    opts.providers.length > 0 && providers.registrationPart(),
  ]);
}

function coreWorkerPart(ctx: ControllerContext, providers: ModelDeploymentProviders, served: ServedWorker[]): PartSpec {
  const { opts, settings, informers, temporal, log } = ctx;
  return {
    name: 'core worker',
    start: async () => {
      // What the kinds' activities factories opened (AsyncActors' broker), closed once the worker has stopped.
      const closeAfterWorker: (() => Promise<void>)[] = [];
      const closeOpened = () => Promise.all(closeAfterWorker.map((close) => close()));
      const worker = await createCoreWorker({
        connection: temporal.get().connection,
        namespace: opts.temporalNamespace,
        kc: opts.kc,
        informers,
        taskQueuePrefix: settings.taskQueuePrefix,
        workflowBundle: opts.workflowBundle,
        activityInterceptors: opts.activityInterceptors?.(undefined),
        flags: opts.flags,
        onStop: (close) => closeAfterWorker.push(close),
        inProcessProviders: providers.activities,
        ...(opts.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: opts.maxCachedWorkflows } : {}),
      }).catch(async (err: unknown) => {
        // A factory that opened its connection before the worker failed to load is closed all the same.
        await closeOpened();
        throw err;
      });
      const core = new ServedWorker(worker, worker.options.taskQueue, log);
      served.push(core);
      return {
        stop: async () => {
          await core.stop();
          await closeOpened();
        },
      };
    },
  };
}
