import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from '../../api/constants.ts';
import type { AnyObject, CustomObjects, ResourceRef } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { kubeCall } from '../../kube/errors.ts';

/** The label every provider resource we render carries; the resource watch (and so its cache) selects by it. */
export const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;

/**
 * A provider resource as the process's resource watch last saw it, or from the API server when the
 * cache holds nothing for it (not watched in this process, not listed yet, or just created).
 */
export async function readUpstream(objects: CustomObjects, informers: InformerSet | undefined, ref: ResourceRef, kind: string): Promise<AnyObject | undefined> {
  const cached = informers?.cached(ref, { labelSelector: MANAGED_SELECTOR });
  if (cached?.known && cached.object) return cached.object;
  return kubeCall(`read ${kind}`, () => objects.get(ref));
}
