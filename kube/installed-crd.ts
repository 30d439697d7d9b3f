import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, type ResourceRef } from './custom-objects.ts';
import type { InformerSet } from './informer-set.ts';
import type { ProviderResourceType } from '../providers/contract.ts';
import { crdRef } from '../providers/crd-version.ts';

/**
 * A CustomResourceDefinition as installed, or undefined when it is missing: from the process's CRD
 * watch when it covers it (a CRD upgraded in place is seen by the next reconcile without a restart),
 * else from the API server. What it means for a provider is providers/crd-version.ts's (pure) question.
 */
export async function readCrd(kc: KubeConfig, informers: InformerSet | undefined, ref: ResourceRef): Promise<unknown> {
  const cached = informers?.cached(ref) ?? { known: false };
  return cached.known ? cached.object : await new CustomObjects(kc).get(ref);
}

/**
 * The CRD of a provider's resource as `readCrd` finds it; undefined without a read for a kind the API
 * server serves itself (`resource.builtin`: a Deployment has no CRD, and nothing to check it against).
 */
export async function readProviderCrd(kc: KubeConfig, informers: InformerSet | undefined, resource: ProviderResourceType): Promise<unknown> {
  if (resource.builtin) return undefined;
  return readCrd(kc, informers, crdRef(resource));
}
