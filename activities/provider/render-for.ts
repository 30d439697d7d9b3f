import type { ModelDeployment } from '../../api/types.ts';
import { activityFailure, messageOf } from '../../contract/failure-types.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { KubernetesObject } from '../../providers/contract.ts';
import { versionOfResource } from '../../providers/crd-version.ts';
import { renderGatewayObjects } from '../../providers/shared/gateway.ts';
import { gatewayNotReady } from '../../providers/shared/gateway-status.ts';
import type { GatewayDecision } from './gateway-lookup.ts';
import { IDENTITY_ANNOTATION, identityOf } from './identity.ts';
import type { ProviderClients } from './provider-clients.ts';

/** What the provider renders for the installed CRD, with that CRD (its schema checks the objects before they are applied). */
export interface Rendered {
  /** The provider's own objects, its resource first. */
  objects: KubernetesObject[];
  /** The route (and pool) in front of them: applied, kept and cleaned up with them, but never their phase. */
  routing: KubernetesObject[];
  crd: unknown;
  /** Which Gateway the objects route through, or why none (GatewayReady). */
  gateway: GatewayDecision;
}

function withRecordedIdentity(md: ModelDeployment) {
  return (obj: KubernetesObject, index: number): KubernetesObject =>
    index === 0 ? { ...obj, metadata: { ...obj.metadata, annotations: { ...obj.metadata.annotations, [IDENTITY_ANNOTATION]: identityOf(md.spec) } } } : obj;
}

/**
 * Renders for the installed CRD version; undefined when the provider's CRD is not installed. The CRD
 * comes along: the rendered resource is checked against its schema before it is applied.
 */
export async function renderFor(p: ProviderClients, md: ModelDeployment): Promise<Rendered | undefined> {
  const { provider } = p;
  const crd = await kubeCall(`detect ${provider.resource.kind} CRD`, p.providerCrd);
  const choice = versionOfResource(provider.resource, crd);
  if (choice === undefined) return undefined;
  if ('error' in choice) throw activityFailure('UnsupportedCrdVersion', choice.error);
  const objects = provider.render(md, { apiVersion: choice.apiVersion }).objects.map(withRecordedIdentity(md));
  const gateway = await decideRouting(p, md);
  return { objects, routing: renderGatewayObjects(md, provider.servingEndpoint(md), gateway.plan), crd, gateway };
}

/**
 * Routing is on by default: a deployment that did not ask for it (spec.gateway.enabled or httpRouteRef)
 * is not held up by a cluster whose Gateway API objects cannot be read (a role without the Gateway
 * rules, an API server busy): that is GatewayReady=False, and the routing it had stays as it is.
 */
async function decideRouting(p: ProviderClients, md: ModelDeployment): Promise<GatewayDecision> {
  try {
    return await p.gateways.decide(md);
  } catch (err) {
    if (routingAskedFor(md)) throw err;
    return { plan: {}, undecided: true, problem: gatewayNotReady('GatewayLookupFailed', `The Gateway API objects could not be read: ${messageOf(err)}`) };
  }
}

/** Whether the spec asks for routing itself (not only the default of routing where a Gateway is found). */
export function routingAskedFor(md: ModelDeployment): boolean {
  return md.spec.gateway?.enabled === true || !!md.spec.gateway?.httpRouteRef;
}

