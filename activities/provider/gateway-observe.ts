// The route's side of a provider pass: what GatewayReady and status.gateway say, and the removal of a
// route or pool the deployment no longer wants (routing turned off, a route of the user's named instead).

import type { GatewayStatus, ModelDeployment } from '../../api/types.ts';
import type { KubernetesObject, OwnedKind, UnifiedCondition } from '../../providers/contract.ts';
import { HTTP_ROUTE_OWNED_KIND, INFERENCE_POOL_OWNED_KIND } from '../../providers/shared/gateway.ts';
import { gatewayReport } from '../../providers/shared/gateway-status.ts';
import { ownedObjectSelector } from '../../providers/shared/metadata.ts';
import { splitApiVersion, type CustomObjects } from '../../kube/custom-objects.ts';
import { classifyKubeError, kubeCall } from '../../kube/errors.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import type { GatewayDecision, GatewayLookup } from './gateway-lookup.ts';

/** The kinds a deployment's routing creates, beside its provider's own. */
export const gatewayKinds: readonly OwnedKind[] = [HTTP_ROUTE_OWNED_KIND, INFERENCE_POOL_OWNED_KIND];

/** GatewayReady and status.gateway for this pass; undefined when the deployment is not routed and nothing went wrong. */
export async function observeGateway(lookup: GatewayLookup, md: ModelDeployment, decision: GatewayDecision): Promise<{ condition: UnifiedCondition; status?: GatewayStatus } | undefined> {
  if (decision.problem) return { condition: decision.problem };
  const gateway = decision.plan.gateway;
  if (!gateway) return undefined;
  const namespace = md.metadata.namespace ?? 'default';
  const theirs = md.spec.gateway?.httpRouteRef;
  const routeName = theirs ?? md.metadata.name ?? '';
  const [route, gatewayObject] = await Promise.all([lookup.route(namespace, routeName, !theirs), lookup.gateway(gateway)]);
  return gatewayReport(md, gateway, routeName, route, gatewayObject);
}

/**
 * Deletes the route and pool this deployment had but no longer renders: only when status shows it was
 * routed (no request otherwise), and only objects that carry its labels and its owner reference.
 */
export async function pruneGatewayObjects(objects: CustomObjects, md: ModelDeployment, ref: ObjectRef, rendered: readonly KubernetesObject[]): Promise<void> {
  if (!md.status?.gateway) return;
  const name = md.metadata.name ?? ref.name;
  const labels = Object.entries(ownedObjectSelector(name));
  for (const kind of gatewayKinds) {
    if (rendered.some((o) => o.kind === kind.kind)) continue;
    const at = { ...splitApiVersion(kind.apiVersion), plural: kind.plural, namespace: ref.namespace, name };
    try {
      const found = await objects.get(at);
      const ours = found && labels.every(([k, v]) => found.metadata?.labels?.[k] === v) && found.metadata?.ownerReferences?.some((o) => o.uid === ref.uid);
      if (ours && !found.metadata?.deletionTimestamp) await kubeCall(`delete ${kind.kind}`, () => objects.remove(at));
    } catch (err) {
      // The kind's CRD was removed: nothing of it is left to delete.
      if (classifyKubeError(err).type !== 'NoKindMatch') throw err;
    }
  }
}
