import type { KubeConfig } from '@kubernetes/client-node';
import type { OwnedKind } from '../providers/contract.ts';
import { CRDS } from '../providers/crd-version.ts';
import { HTTP_ROUTE_OWNED_KIND } from '../providers/shared/gateway.ts';
import { CustomObjects } from '../kube/custom-objects.ts';

/**
 * HTTPRoute among the kinds the provider resource watches follow, when its CRD is installed as the
 * controller starts (a route's status, written by the Gateway's controller, then wakes its deployment at
 * once). Installed later: routes are still applied and read on every pass, their status changes are seen
 * at the next pass, and a restart of the controller watches them.
 */
export async function routeWatchKinds(kc: KubeConfig, log: (line: string) => void): Promise<OwnedKind[]> {
  try {
    const crd = await new CustomObjects(kc).get({ ...CRDS, name: `${HTTP_ROUTE_OWNED_KIND.plural}.gateway.networking.k8s.io` });
    return crd ? [HTTP_ROUTE_OWNED_KIND] : [];
  } catch (err) {
    log(`HTTPRoute CRD lookup failed, routes are not watched: ${(err as Error).message}`);
    return [];
  }
}
