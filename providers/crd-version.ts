import type { KubeConfig } from '@kubernetes/client-node';
import type { ProviderResourceType } from './contract.ts';
import { chooseApiVersion, type VersionChoice } from './shared/api-version.ts';
import { CustomObjects, type CollectionRef, type ResourceRef } from '../kube/custom-objects.ts';
import type { CollectionSpec, InformerSet } from '../kube/informer-set.ts';

interface CrdBody {
  spec?: { versions?: { name: string; served?: boolean }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

export const CRDS: CollectionRef = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };

export function crdRef(resource: ProviderResourceType): ResourceRef {
  return { ...CRDS, name: `${resource.plural}.${resource.group}` };
}

/**
 * The API version to render for, from the CRD the cluster has installed (seed 001 §4.10); undefined
 * when the CRD is missing or not yet Established. Read from the process's CRD watch when it has one
 * (else from the API server): a CRD upgraded in place is picked up by the next reconcile without a restart.
 */
export async function detectInstalledVersion(kc: KubeConfig, informers: InformerSet | undefined, resource: ProviderResourceType): Promise<VersionChoice | undefined> {
  return (await readInstalledCrd(kc, informers, resource)).choice;
}

/** The provider's CRD as installed (undefined when missing) and the version to render for it (see detectInstalledVersion). */
export async function readInstalledCrd(
  kc: KubeConfig,
  informers: InformerSet | undefined,
  resource: ProviderResourceType,
): Promise<{ crd: unknown; choice: VersionChoice | undefined }> {
  const ref = crdRef(resource);
  const cached = informers?.cached(ref) ?? { known: false };
  const crd: unknown = cached.known ? cached.object : await new CustomObjects(kc).get(ref);
  return { crd, choice: versionOfCrd(resource, crd) };
}

/** The API version to render for, given the provider's CRD as read (undefined: missing or not yet Established). */
export function versionOfCrd(resource: ProviderResourceType, object: unknown): VersionChoice | undefined {
  const crd = object as CrdBody | undefined;
  if (!crd) return undefined;
  if (!crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return undefined;
  const served = (crd.spec?.versions ?? []).filter((v) => v.served !== false).map((v) => v.name);
  return chooseApiVersion(resource, served);
}

/**
 * A watch of the provider's own CRD alone (a `metadata.name` field selector, which RBAC authorizes
 * against the role's `resourceNames`: a provider may list and watch its CRD and no other).
 */
export function crdCollection(resource: ProviderResourceType): CollectionSpec {
  return { ...CRDS, fieldSelector: `metadata.name=${crdRef(resource).name}` };
}
