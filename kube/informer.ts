import { ListWatch, Watch, type Informer, type KubeConfig, type KubernetesObject, type ListPromise, type ObjectCache } from '@kubernetes/client-node';
import { Backoff } from './backoff.ts';
import type { AnyObject } from './custom-objects.ts';

/**
 * An object as a list or a watch delivers it to an informer: JSON, read through AnyObject. client-node's
 * informer takes a KubernetesObject, whose metadata types the timestamps as Date; on the wire (and in
 * the caches, which keep the JSON) they are strings, which is what AnyObject declares and every reader takes.
 */
export type WatchedObject = AnyObject & KubernetesObject;

export type ResilientInformer<T extends KubernetesObject> = Informer<T> & ObjectCache<T>;

export interface InformerOptions {
  /** Called on every (re)start failure, with the delay before the next attempt. */
  onError?: (err: unknown, retryInMs: number) => void;
  /** Called once when a list and watch succeed again after failures (the end of an outage). */
  onRecovered?: () => void;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * Watch with this Accept header (e.g. PartialObjectMetadata, so a Secret's data never reaches this
   * process). The list function must ask for the same representation.
   */
  accept?: string;
}

/**
 * Drops `metadata.managedFields` from an object fresh off the wire (it is ours alone, so in place). The
 * caches keep none, as controller-runtime's do by default: no reader of a cache needs them (server-side
 * apply does not; Asya's injection reads its target live), and they are often the bulk of an object,
 * one entry per field manager listing every field it set.
 */
function stripManagedFields<T>(obj: T): T {
  const metadata = (obj as { metadata?: { managedFields?: unknown } } | null | undefined)?.metadata;
  if (metadata && 'managedFields' in metadata) delete metadata.managedFields;
  return obj;
}

/** A Watch whose events carry objects without managed fields; everything else is delegated. */
function strippingWatch(watch: Watch): Watch {
  const wrapped = Object.create(watch) as Watch;
  wrapped.watch = (path, query, callback, done) => watch.watch(path, query, (phase, obj, raw) => callback(phase, stripManagedFields(obj), raw), done);
  return wrapped;
}

/** Calls `handler` on each of these events of the informer; the function returned unsubscribes it. */
export function subscribe<T extends KubernetesObject>(informer: Informer<T>, events: readonly ('add' | 'update' | 'delete')[], handler: (obj: T) => void): () => void {
  for (const event of events) informer.on(event, handler);
  return () => {
    for (const event of events) informer.off(event, handler);
  };
}

/** The informer and whether its cache has been filled by a first list (before that, absence means nothing). */
export interface StartedInformer<T extends KubernetesObject> {
  informer: ResilientInformer<T>;
  readonly synced: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Restarts now a watch that failed and waits on its backoff: the cause is known to be gone (e.g. its CRD is installed again). */
  retryNow(): void;
}

/** A KubeConfig whose fetch options carry another Accept header; everything else is delegated. */
function withAccept(kc: KubeConfig, accept: string): KubeConfig {
  const wrapped = Object.create(kc) as KubeConfig;
  wrapped.applyToFetchOptions = async (opts) => {
    const init = await kc.applyToFetchOptions(opts);
    return { ...init, headers: { ...(init.headers as Record<string, string>), Accept: accept } };
  };
  return wrapped;
}

/**
 * An informer that keeps going. client-node's informer stops on any error but 410 Gone (a reset
 * connection, a 403, a CRD not yet established); this one restarts it with capped exponential backoff
 * and jitter (so a process's informers do not all hit a returning API server at once). The backoff
 * starts over only after a restart that listed and watched again: client-node emits `connect` before
 * its list, so that event says nothing about the server being back.
 */
export function resilientInformer<T extends KubernetesObject>(
  kc: KubeConfig,
  path: string,
  list: ListPromise<T>,
  opts: InformerOptions = {},
): StartedInformer<T> {
  const watch = strippingWatch(new Watch(opts.accept ? withAccept(kc, opts.accept) : kc));
  const listStripped: ListPromise<T> = async () => {
    const listed = await list();
    for (const item of listed.items) stripManagedFields(item);
    return listed;
  };
  const informer = new ListWatch<T>(path, watch, listStripped, false, opts.labelSelector, opts.fieldSelector);
  const backoff = new Backoff({ initialMs: opts.initialBackoffMs ?? 1_000, maxMs: opts.maxBackoffMs ?? 30_000 });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let synced = false;
  let failed = false;
  // client-node's start() resolves even when its list failed (it reports that as an error event), so
  // the cache counts as filled only after a start with no error.
  const begin = async () => {
    failed = false;
    await informer.start();
    if (failed || stopped) return;
    synced = true;
    if (backoff.attempts > 0) {
      backoff.reset();
      opts.onRecovered?.();
    }
  };

  const restart = () => {
    timer = undefined;
    if (stopped) return;
    begin().catch(scheduleRestart);
  };
  function scheduleRestart(err: unknown) {
    failed = true;
    if (stopped) return;
    const delay = backoff.next();
    opts.onError?.(err, delay);
    clearTimeout(timer);
    timer = setTimeout(restart, delay);
  }
  informer.on('error', scheduleRestart);

  return {
    informer,
    get synced() {
      return synced;
    },
    async start() {
      stopped = false;
      try {
        await begin();
      } catch (err) {
        scheduleRestart(err);
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await informer.stop();
    },
    retryNow() {
      if (stopped || !failed || timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      restart();
    },
  };
}
