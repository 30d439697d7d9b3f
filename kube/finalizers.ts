import type { AnyObject, CustomObjects, ResourceRef } from './custom-objects.ts';
import { classifyKubeError } from './errors.ts';

/**
 * Adds or removes one finalizer with a JSON patch guarded by the list it replaces (or, with no list
 * yet, by the resourceVersion): another controller's finalizer written meanwhile is never lost. A
 * failed guard re-reads from the API server (`read(true)`), a cached copy may be older than the list.
 * Returns without a write when the object is gone or already as wanted.
 */
export async function setFinalizer(
  objects: CustomObjects,
  resource: ResourceRef,
  read: (fresh: boolean) => Promise<AnyObject | undefined>,
  finalizer: string,
  present: boolean,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const obj = await read(attempt > 1);
    if (!obj) return;
    const current = obj.metadata?.finalizers;
    if ((current ?? []).includes(finalizer) === present) return;
    const next = present ? [...(current ?? []), finalizer] : current!.filter((f) => f !== finalizer);
    const guard = current ? { op: 'test', path: '/metadata/finalizers', value: current } : { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata?.resourceVersion };
    try {
      await objects.jsonPatch(resource, [guard, { op: current ? 'replace' : 'add', path: '/metadata/finalizers', value: next }]);
      return;
    } catch (err) {
      if (classifyKubeError(err).type !== 'Invalid' || attempt >= 5) throw err;
    }
  }
}
