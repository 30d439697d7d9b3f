import type { ModelDeployment } from '../../api/types.ts';
import { activityFailure } from '../../contract/failure-types.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { KubernetesObject } from '../../providers/contract.ts';
import { versionOfResource } from '../../providers/crd-version.ts';
import { renderGatewayObjects } from '../../providers/shared/gateway.ts';
import type { GatewayDecision } from './gateway-lookup.ts';
import { IDENTITY_ANNOTATION, identityOf } from './identity.ts';
import type { ProviderClients } from './provider-clients.ts';

/** What the provider renders for the installed CRD, with that CRD (its schema checks the objects before they are applied). */
export interface Rendered {
  objects: KubernetesObject[];
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
  const own = provider.render(md, { apiVersion: choice.apiVersion }).objects.map(withRecordedIdentity(md));
  // The route (and pool) follow the provider's objects: applied, kept and cleaned up with them.
  const gateway = await p.gateways.decide(md);
  return { objects: [...own, ...renderGatewayObjects(md, provider.servingEndpoint(md), gateway.plan)], crd, gateway };
}
