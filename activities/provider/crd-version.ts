import type { KubeConfig } from '@kubernetes/client-node';
import type { ProviderResourceType } from '../../providers/contract.ts';
import { chooseApiVersion, type VersionChoice } from '../../providers/shared/api-version.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';

interface CrdBody {
  spec?: { versions?: { name: string; served?: boolean }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

/**
 * The API version to render for, from the CRD the cluster has installed (seed 001 §4.10); undefined
 * when the CRD is missing or not yet Established. Read on every call: a CRD upgraded in place is
 * picked up by the next reconcile without a restart.
 */
export async function detectInstalledVersion(kc: KubeConfig, resource: ProviderResourceType): Promise<VersionChoice | undefined> {
  const crd = (await new CustomObjects(kc).get({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    name: `${resource.plural}.${resource.group}`,
  })) as CrdBody | undefined;
  if (!crd) return undefined;
  if (!crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return undefined;
  const served = (crd.spec?.versions ?? []).filter((v) => v.served !== false).map((v) => v.name);
  return chooseApiVersion(resource, served);
}
