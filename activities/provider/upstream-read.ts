import { MANAGED_SELECTOR } from '../../api/constants.ts';
import type { AnyObject, CustomObjects, ResourceRef } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { kubeCall } from '../../kube/errors.ts';

/**
 * A provider resource as the process's resource watch last saw it, or from the API server when the
 * cache holds nothing for it (not watched in this process, not listed yet, or just created).
 */
export async function readUpstream(objects: CustomObjects, informers: InformerSet | undefined, ref: ResourceRef, kind: string): Promise<AnyObject | undefined> {
  const cached = informers?.cached(ref, { labelSelector: MANAGED_SELECTOR });
  if (cached?.known && cached.object) return cached.object;
  return kubeCall(`read ${kind}`, () => objects.get(ref));
}
