import type { KubeConfig } from '@kubernetes/client-node';
import type { InformerSet } from '../kube/informer-set.ts';
import type { ActivityInterceptorsFactory, NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import { KIND_MODULES } from '../kinds/index.ts';
import type { KindModule, RunFlagValues } from '../kinds/kind-module.ts';
import type { ProviderActivities } from '../contract/provider-activities.ts';
import { coreTaskQueue } from '../workflows/engine/settings.ts';
import { inProcessActivityType, NOT_SERVED } from '../workflows/model-deployment/settings.ts';
import { Context } from '@temporalio/activity';
import { activityFailure } from '../contract/failure-types.ts';
import { workflowCode } from './workflow-code.ts';
import { WorkflowWorker } from './workflow-thread.ts';


export interface CoreWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  kc: KubeConfig;
  /** The process's shared informers (reads come from their caches). */
  informers?: InformerSet;
  taskQueuePrefix: string;
  /** A prebuilt bundle (tests share one); when omitted, the build's bundle or the sources (workflow-code.ts). */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Around every activity (metrics, step logs: observability/). */
  activityInterceptors?: ActivityInterceptorsFactory[];
  /** The sticky cache's size; MAX_CACHED_WORKFLOWS when omitted. */
  maxCachedWorkflows?: number;
  /** The values of the modules' flags, for their activities (AsyncActors' broker). */
  flags?: RunFlagValues;
  /** Takes what an activities factory opened, to close once the worker has stopped. */
  onStop?(close: () => Promise<void>): void;
  /**
   * Providers whose workers run in this process: their `reconcileResource` and `cleanupResources` are
   * served here too, as `<provider>:<activity>`, for the workflow to run as local activities (no task
   * queue between).
   */
  inProcessProviders?: Readonly<Record<string, ProviderActivities>>;
  /** The modules whose activities it serves; every registered one when omitted. */
  modules?: readonly KindModule[];
}

/** The core worker: runs every registered kind's workflows (kinds/index.ts) and their activities. */
export async function createCoreWorker(opts: CoreWorkerOptions): Promise<Worker> {
  const modules = opts.modules ?? KIND_MODULES;
  const context = { kc: opts.kc, informers: opts.informers, inProcessProviders: Object.keys(opts.inProcessProviders ?? {}), flags: opts.flags, onStop: opts.onStop };
  const kindActivities = await Promise.all(modules.map((m) => m.activities(context)));
  return WorkflowWorker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: coreTaskQueue({ taskQueuePrefix: opts.taskQueuePrefix }),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : workflowCode()),
    // Every kind's activities: one worker, one task queue, one sticky cache for all their workflows.
    activities: {
      ...Object.assign({}, ...kindActivities),
      ...Object.fromEntries(
        Object.entries(opts.inProcessProviders ?? {}).flatMap(([name, acts]) => [
          [inProcessActivityType(name, 'reconcileResource'), acts.reconcileResource],
          [inProcessActivityType(name, 'cleanupResources'), acts.cleanupResources],
        ]),
      ),
      default: notServed,
    },
    interceptors: { activity: opts.activityInterceptors ?? [] },
    // Sized for small machines: reconciliation is I/O-bound and each workflow task is short.
    maxConcurrentWorkflowTaskExecutions: 20,
    maxConcurrentActivityTaskExecutions: 40,
    // The SDK's default follows the heap limit (about 2,300 workflows at a 4 GiB heap, some 400 KiB of
    // resident memory each): bounded instead, a deployment past the cache replays its short history
    // (tens of events) when it is next woken, which an idle one is only at its resync.
    maxCachedWorkflows: opts.maxCachedWorkflows ?? MAX_CACHED_WORKFLOWS,
  });
}

/**
 * What a core worker answers for an activity type it does not serve. Without it, a local activity of an
 * unknown type fails before it is recorded, and a workflow that then falls back to the provider's task
 * queue would not replay on a worker that does serve it; with it, the failure is in history.
 */
export async function notServed(): Promise<never> {
  throw activityFailure(NOT_SERVED, `This worker does not serve activity ${Context.current().info.activityType}`);
}

/** Workflows a core worker keeps in memory between their workflow tasks (sticky cache). */
export const MAX_CACHED_WORKFLOWS = 300;
