// The route's side of a provider pass: what GatewayReady and status.gateway say, and the removal of a
// route or pool the deployment no longer wants (routing turned off, a route of the user's named instead).

import type { GatewayStatus, ModelDeployment } from '../../api/types.ts';
import { MANAGED_SELECTOR } from '../../api/constants.ts';
import type { KubernetesObject, UnifiedCondition } from '../../providers/contract.ts';
import { gatewayReport } from '../../providers/shared/gateway-status.ts';
import { ownedObjectSelector } from '../../providers/shared/metadata.ts';
import { splitApiVersion, type CustomObjects } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { classifyKubeError, kubeCall } from '../../kube/errors.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import type { GatewayDecision, GatewayLookup } from './gateway-lookup.ts';

/**
 * GatewayReady and status.gateway for this pass; undefined when the deployment is not routed and nothing
 * went wrong. A problem beside a Gateway (the pool's CRD missing: the route goes to the Service) is the
 * condition, and status.gateway still says where the deployment is reached.
 */
export async function observeGateway(lookup: GatewayLookup, md: ModelDeployment, decision: GatewayDecision): Promise<{ condition: UnifiedCondition; status?: GatewayStatus } | undefined> {
  const gateway = decision.plan.gateway;
  if (!gateway) return decision.problem ? { condition: decision.problem } : undefined;
  const namespace = md.metadata.namespace ?? 'default';
  const theirs = md.spec.gateway?.httpRouteRef;
  const routeName = theirs ?? md.metadata.name ?? '';
  const [route, gatewayObject] = await Promise.all([decision.theirRoute ?? lookup.route(namespace, routeName, !theirs), lookup.gateway(gateway)]);
  const report = gatewayReport(md, gateway, routeName, route, gatewayObject);
  return decision.problem ? { ...report, condition: decision.problem } : report;
}

/**
 * Deletes the route and pool this deployment had but no longer renders (routing turned off, a route of
 * the user's named instead): only kinds the cluster serves, only objects that carry its labels and its
 * owner reference. From the managed-object cache where it holds the kind (no request per pass), else one GET.
 */
export async function pruneGatewayObjects(lookup: GatewayLookup, objects: CustomObjects, informers: InformerSet | undefined, md: ModelDeployment, ref: ObjectRef, rendered: readonly KubernetesObject[]): Promise<void> {
  const name = md.metadata.name ?? ref.name;
  const labels = Object.entries(ownedObjectSelector(name));
  for (const kind of await lookup.servedKinds()) {
    if (rendered.some((o) => o.kind === kind.kind)) continue;
    const at = { ...splitApiVersion(kind.apiVersion), plural: kind.plural, namespace: ref.namespace, name };
    const cached = informers?.cached(at, { labelSelector: MANAGED_SELECTOR });
    try {
      const found = cached?.known ? cached.object : await objects.get(at);
      const ours = found && labels.every(([k, v]) => found.metadata?.labels?.[k] === v) && found.metadata?.ownerReferences?.some((o) => o.uid === ref.uid);
      if (ours && !found.metadata?.deletionTimestamp) await kubeCall(`delete ${kind.kind}`, () => objects.remove(at));
    } catch (err) {
      // The kind's CRD was removed meanwhile: nothing of it is left to delete.
      if (classifyKubeError(err).type !== 'NoKindMatch') throw err;
    }
  }
}
