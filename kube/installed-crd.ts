import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, type ResourceRef } from './custom-objects.ts';
import type { InformerSet } from './informer-set.ts';

/**
 * A CustomResourceDefinition as installed, or undefined when it is missing: from the process's CRD
 * watch when it covers it (a CRD upgraded in place is seen by the next reconcile without a restart),
 * else from the API server. What it means for a provider is providers/crd-version.ts's (pure) question.
 */
export async function readCrd(kc: KubeConfig, informers: InformerSet | undefined, ref: ResourceRef | undefined): Promise<unknown> {
  // No CRD to read: a provider resource of a kind the API server serves itself (providers/crd-version.ts providerCrdRef).
  if (ref === undefined) return undefined;
  const cached = informers?.cached(ref) ?? { known: false };
  return cached.known ? cached.object : await new CustomObjects(kc).get(ref);
}

