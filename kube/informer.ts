import { makeInformer, type Informer, type KubeConfig, type KubernetesObject, type ListPromise, type ObjectCache } from '@kubernetes/client-node';

export type ResilientInformer<T extends KubernetesObject> = Informer<T> & ObjectCache<T>;

export interface InformerOptions {
  /** Called on every (re)start failure, with the delay before the next attempt. */
  onError?: (err: unknown, retryInMs: number) => void;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  labelSelector?: string;
}

/**
 * An informer that keeps going. client-node's informer stops on any error but 410 Gone (a reset
 * connection, a 403, a CRD not yet established); this one restarts it with exponential backoff, and
 * resets the backoff once a watch connects again.
 */
export function resilientInformer<T extends KubernetesObject>(
  kc: KubeConfig,
  path: string,
  list: ListPromise<T>,
  opts: InformerOptions = {},
): { informer: ResilientInformer<T>; start(): Promise<void>; stop(): Promise<void> } {
  const informer = makeInformer<T>(kc, path, list, opts.labelSelector);
  const initial = opts.initialBackoffMs ?? 1_000;
  const max = opts.maxBackoffMs ?? 30_000;
  let backoff = initial;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const restart = () => {
    if (stopped) return;
    informer.start().catch(scheduleRestart);
  };
  function scheduleRestart(err: unknown) {
    if (stopped) return;
    opts.onError?.(err, backoff);
    clearTimeout(timer);
    timer = setTimeout(restart, backoff);
    backoff = Math.min(backoff * 2, max);
  }
  informer.on('error', scheduleRestart);
  informer.on('connect', () => {
    backoff = initial;
  });

  return {
    informer,
    async start() {
      stopped = false;
      try {
        await informer.start();
      } catch (err) {
        scheduleRestart(err);
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await informer.stop();
    },
  };
}
