import type { AnyObject, CustomObjects, ResourceRef } from './custom-objects.ts';
import type { InformerSet } from './informer-set.ts';
import { isAtLeast } from '../contract/resource-version.ts';

/** One incarnation of an object (its uid), no older than a resourceVersion the reader has seen. */
export interface Incarnation {
  uid: string;
  seenVersion?: string;
}

/**
 * The live object of this incarnation, or undefined when it is gone (or replaced by a new one of the
 * same name). From the process's cache when it holds this incarnation at least as new as the reader has
 * seen; otherwise (not cached yet, older, or gone from the cache) from the API server.
 */
export async function readLive(objects: CustomObjects, informers: InformerSet | undefined, resource: ResourceRef, want: Incarnation): Promise<AnyObject | undefined> {
  const cached = informers?.cached(resource);
  const hit = cached?.known ? cached.object : undefined;
  if (hit && hit.metadata?.uid === want.uid && isAtLeast(hit.metadata?.resourceVersion, want.seenVersion)) return hit;
  const live = await objects.get(resource);
  return live && live.metadata?.uid === want.uid ? live : undefined;
}
