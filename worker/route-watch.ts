import type { KubeConfig } from '@kubernetes/client-node';
import type { OwnedKind } from '../providers/contract.ts';
import { CRDS } from '../providers/crd-version.ts';
import { gatewayKinds } from '../activities/provider/gateway-lookup.ts';
import { CustomObjects, splitApiVersion } from '../kube/custom-objects.ts';

/**
 * HTTPRoute and InferencePool among the kinds the provider resource watches follow, those whose CRDs are
 * installed as the controller starts: a route's status, written by the Gateway's controller, then wakes
 * its deployment at once, and a pass learns from the cache (no request) that a route or pool it no
 * longer wants is not there. Installed later: they are still applied and read on every pass, and a
 * restart of the controller watches them.
 */
export async function routeWatchKinds(kc: KubeConfig, log: (line: string) => void): Promise<OwnedKind[]> {
  const objects = new CustomObjects(kc);
  const watched: OwnedKind[] = [];
  for (const kind of gatewayKinds) {
    try {
      if (await objects.get({ ...CRDS, name: `${kind.plural}.${splitApiVersion(kind.apiVersion).group}` })) watched.push(kind);
    } catch (err) {
      log(`${kind.kind} CRD lookup failed, ${kind.kind} objects are not watched: ${(err as Error).message}`);
    }
  }
  return watched;
}
