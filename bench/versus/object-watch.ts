// A plain watch on one collection that keeps going for the length of a bench run, timing each event on
// arrival. The bench never polls: a list per check would add requests to the count it measures.
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { AnyObject } from '../../kube/custom-objects.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ObjectWatch {
  stop(): void;
}

/** Resolves once the first watch request is connected, so nothing created afterwards can be missed. */
export async function watchCollection(kc: KubeConfig, path: string, onEvent: (type: WatchEventType, obj: AnyObject, atMs: number) => void): Promise<ObjectWatch> {
  const watch = new Watch(kc);
  let stopped = false;
  let resourceVersion: string | undefined;
  let current: AbortController | undefined;
  const start = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    const query: Record<string, string | boolean> = { allowWatchBookmarks: true };
    if (resourceVersion) query.resourceVersion = resourceVersion;
    return watch
      .watch(
        path,
        query,
        (type: string, obj: AnyObject) => {
          const at = Date.now();
          if (type === 'ERROR') {
            // 410 Gone: the version is too old; start again from now (first-seen times are kept by callers).
            resourceVersion = undefined;
            return;
          }
          resourceVersion = obj.metadata?.resourceVersion ?? resourceVersion;
          if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') onEvent(type, obj, at);
        },
        () => {
          if (!stopped) setTimeout(start, 200);
        },
      )
      .then(
        (controller) => {
          current = controller;
          if (stopped) controller.abort();
        },
        () => {
          if (!stopped) setTimeout(start, 1_000);
        },
      );
  };
  await start();
  return {
    stop() {
      stopped = true;
      current?.abort();
    },
  };
}
