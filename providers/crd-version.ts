// Which version of a provider's CRD to render for, from the CRD as read (kube/installed-crd.ts reads it):
// pure, like the rest of providers/.
import type { ProviderResourceType } from './contract.ts';
import { chooseApiVersion, type VersionChoice } from './shared/api-version.ts';
import type { CollectionRef, ResourceRef } from '../kube/custom-objects.ts';
import type { CollectionSpec } from '../kube/informer-set.ts';

interface CrdBody {
  spec?: { versions?: { name: string; served?: boolean }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

export const CRDS: CollectionRef = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };

export function crdRef(resource: ProviderResourceType): ResourceRef {
  return { ...CRDS, name: `${resource.plural}.${resource.group}` };
}

/** The CRD to read for a provider's resource; undefined for a kind the API server serves itself (`builtin`), which has none. */
export function providerCrdRef(resource: ProviderResourceType): ResourceRef | undefined {
  return resource.builtin ? undefined : crdRef(resource);
}

/**
 * The API version to render for, given the provider's CRD as read (seed 001 §4.10); undefined when the
 * CRD is missing or not yet Established.
 */
export function versionOfCrd(resource: ProviderResourceType, object: unknown): VersionChoice | undefined {
  const crd = object as CrdBody | undefined;
  if (!crd) return undefined;
  if (!crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return undefined;
  const served = (crd.spec?.versions ?? []).filter((v) => v.served !== false).map((v) => v.name);
  return chooseApiVersion(resource, served);
}

/**
 * The API version to render for, whatever kind of resource it is: a built-in kind (`resource.builtin`)
 * is always served in its first listed version, with no CRD to read (`crd` is then ignored); a custom
 * resource's version comes from its CRD as read (`versionOfCrd`).
 */
export function versionOfResource(resource: ProviderResourceType, crd: unknown): VersionChoice | undefined {
  if (resource.builtin) return builtinVersion(resource);
  return versionOfCrd(resource, crd);
}

/** `apps/v1` for a built-in kind of group `apps`; `v1` for the core group. */
export function builtinVersion(resource: ProviderResourceType): VersionChoice {
  const version = resource.versions[0];
  if (version === undefined) return { error: `${resource.kind} lists no API version` };
  return { apiVersion: resource.group ? `${resource.group}/${version}` : version };
}

/**
 * A watch of the provider's own CRD alone (a `metadata.name` field selector, which RBAC authorizes
 * against the role's `resourceNames`: a provider may list and watch its CRD and no other).
 */
export function crdCollection(resource: ProviderResourceType): CollectionSpec {
  return { ...CRDS, fieldSelector: `metadata.name=${crdRef(resource).name}` };
}
