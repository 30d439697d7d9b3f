// What routing a deployment needs, read from the cluster: whether the Gateway API (and the Inference
// Extension) CRDs are served, which Gateway the deployment's route attaches to, and that Gateway and the
// route as they are now (for GatewayReady and status.gateway). Rendering them stays pure
// (providers/shared/gateway.ts); this is the I/O around it.

import { MANAGED_SELECTOR } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { OwnedKind, UnifiedCondition } from '../../providers/contract.ts';
import { CRDS } from '../../providers/crd-version.ts';
import { field, list, str } from '../../providers/shared/read.ts';
import { GATEWAY_GROUP, GATEWAY_KIND, HTTP_ROUTE_OWNED_KIND, INFERENCE_POOL_OWNED_KIND, type GatewayPlan, type GatewayRef } from '../../providers/shared/gateway.ts';
import { gatewayNotReady } from '../../providers/shared/gateway-status.ts';
import { splitApiVersion, type AnyObject, type CustomObjects, type ResourceRef } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { kubeCall } from '../../kube/errors.ts';

/** A Gateway carrying this label is the one deployments use when a cluster has several and none is configured. */
export const INFERENCE_GATEWAY_LABEL = 'kubeairunway.ai/inference-gateway';

/** The controller's routing settings (its --gateway-* flags). */
export interface GatewayDefaults {
  /** The Gateway every deployment uses unless its spec.gateway.gatewayRef names another; namespace defaults to the deployment's. */
  gateway?: { name: string; namespace?: string };
  /** What a route sends requests to: `auto` (an InferencePool where its CRD is served, else the Service), `service` or `inference-pool`. */
  backend: 'auto' | 'service' | 'inference-pool';
  /** The endpoint picker an InferencePool names: `{name}` in `name` stands for the deployment's name. */
  endpointPicker?: { name: string; port: number };
}

/** The kinds a deployment's routing creates, beside its provider's own. */
export const gatewayKinds: readonly OwnedKind[] = [HTTP_ROUTE_OWNED_KIND, INFERENCE_POOL_OWNED_KIND];

export const DEFAULT_GATEWAY_DEFAULTS: GatewayDefaults = { backend: 'auto' };

/** The plan, or why there is none (a GatewayReady=False the user can act on). */
export interface GatewayDecision {
  plan: GatewayPlan;
  problem?: UnifiedCondition;
  /** The cluster could not be read: the plan is not known, so nothing routed before is pruned on its account. */
  undecided?: true;
  /** The user's own route (spec.gateway.httpRouteRef) as read to decide: its status is judged from this read, not a second one. */
  theirRoute?: AnyObject;
}

const crdName = (kind: { plural: string; apiVersion: string }) => `${kind.plural}.${splitApiVersion(kind.apiVersion).group}`;

export class GatewayLookup {
  constructor(
    private readonly objects: Pick<CustomObjects, 'get' | 'list'>,
    private readonly informers: InformerSet | undefined,
    private readonly defaults: GatewayDefaults,
  ) {}

  async decide(md: ModelDeployment): Promise<GatewayDecision> {
    const wanted = md.spec.gateway?.enabled;
    if (wanted === false) return { plan: {} };
    if (!(await this.served(HTTP_ROUTE_OWNED_KIND))) {
      return wanted ? { plan: {}, problem: gatewayNotReady('GatewayAPINotInstalled', "spec.gateway.enabled is true, but the Gateway API's HTTPRoute CRD (gateway.networking.k8s.io) is not installed in the cluster") } : { plan: {} };
    }
    const theirs = md.spec.gateway?.httpRouteRef;
    const found: { gateway: GatewayRef; route?: AnyObject } | { problem: UnifiedCondition } = theirs ? await this.gatewayOfTheirRoute(md, theirs) : await this.gatewayFor(md);
    // A route of the user's named is routing asked for: its problems are said like an explicit `enabled`.
    if ('problem' in found) return wanted || theirs ? { plan: {}, problem: found.problem } : { plan: {} };
    const read = found.route ? { theirRoute: found.route } : {};
    const pool = await this.inferencePool(md);
    if ('problem' in pool) return { plan: { gateway: found.gateway }, problem: pool.problem, ...read };
    return { plan: { gateway: found.gateway, ...pool }, ...read };
  }

  /** The live Gateway, or undefined when it does not exist. */
  async gateway(ref: GatewayRef): Promise<AnyObject | undefined> {
    const at: ResourceRef = { ...splitApiVersion(GATEWAY_KIND.apiVersion), plural: GATEWAY_KIND.plural, namespace: ref.namespace, name: ref.name };
    return this.read(at, 'read Gateway');
  }

  /**
   * The live HTTPRoute of that name in the deployment's namespace: ours (carrying the managed-by label,
   * so the provider's watch of routes holds it), or the user's httpRouteRef (read from the API server).
   */
  async route(namespace: string, name: string, ours: boolean): Promise<AnyObject | undefined> {
    const at = { ...splitApiVersion(HTTP_ROUTE_OWNED_KIND.apiVersion), plural: HTTP_ROUTE_OWNED_KIND.plural, namespace, name };
    return this.read(at, 'read HTTPRoute', ours ? MANAGED_SELECTOR : undefined);
  }

  /** The kinds routing can make whose CRDs the cluster serves: what pruning and cleanup look for. */
  async servedKinds(): Promise<OwnedKind[]> {
    const served = await Promise.all(gatewayKinds.map((k) => this.served(k)));
    return gatewayKinds.filter((_, i) => served[i]);
  }

  /**
   * The Gateway a user's own route (spec.gateway.httpRouteRef) attaches to, from its parentRefs: the one
   * spec.gateway.gatewayRef names when the route has it among them, else its first Gateway.
   */
  private async gatewayOfTheirRoute(md: ModelDeployment, routeName: string): Promise<{ gateway: GatewayRef; route: AnyObject } | { problem: UnifiedCondition }> {
    const namespace = md.metadata.namespace ?? 'default';
    const route = await this.route(namespace, routeName, false);
    if (!route) return { problem: gatewayNotReady('RouteNotFound', `HTTPRoute '${routeName}' (spec.gateway.httpRouteRef) not found in namespace '${namespace}'`) };
    const parents = gatewayParents(route, namespace);
    const named = md.spec.gateway?.gatewayRef;
    const chosen = parents.find((g) => g.name === named?.name && g.namespace === (named.namespace || namespace)) ?? parents[0];
    if (!chosen) return { problem: gatewayNotReady('NoParentGateway', `HTTPRoute '${routeName}' (spec.gateway.httpRouteRef) names no Gateway in spec.parentRefs`) };
    return { gateway: chosen, route };
  }

  private async gatewayFor(md: ModelDeployment): Promise<{ gateway: GatewayRef } | { problem: UnifiedCondition }> {
    const namespace = md.metadata.namespace ?? 'default';
    const named = md.spec.gateway?.gatewayRef ?? this.defaults.gateway;
    if (named?.name) return { gateway: { name: named.name, namespace: named.namespace || namespace } };
    const all = await this.listGateways();
    const labelled = all.filter((g) => g.metadata?.labels?.[INFERENCE_GATEWAY_LABEL] === 'true');
    const only = all.length === 1 ? all[0] : labelled.length === 1 ? labelled[0] : undefined;
    if (only) return { gateway: { name: only.metadata!.name!, namespace: only.metadata!.namespace! } };
    if (all.length === 0) return { problem: gatewayNotReady('NoGateway', 'No Gateway found in the cluster: create one, or name one with spec.gateway.gatewayRef') };
    return {
      problem: gatewayNotReady(
        'NoGateway',
        `${all.length} Gateways found and ${labelled.length === 0 ? 'none' : labelled.length} labelled ${INFERENCE_GATEWAY_LABEL}=true: name one with spec.gateway.gatewayRef (or label exactly one)`,
      ),
    };
  }

  private async inferencePool(md: ModelDeployment): Promise<Pick<GatewayPlan, 'inferencePool'> | { problem: UnifiedCondition }> {
    const { backend, endpointPicker } = this.defaults;
    if (backend === 'service') return {};
    const served = await this.served(INFERENCE_POOL_OWNED_KIND);
    if (!served) {
      return backend === 'inference-pool'
        ? { problem: gatewayNotReady('InferencePoolNotInstalled', "The controller routes through InferencePools (--gateway-backend=inference-pool), but the Gateway API Inference Extension's InferencePool CRD is not installed") }
        : {};
    }
    const picker = endpointPicker ? { name: endpointPicker.name.replaceAll('{name}', md.metadata.name ?? ''), port: endpointPicker.port } : undefined;
    return { inferencePool: picker ? { endpointPicker: picker } : {} };
  }

  /** Whether a kind's CRD is installed: from a watch of that one CRD (started on first use), else one GET. */
  private async served(kind: { plural: string; apiVersion: string }): Promise<boolean> {
    const name = crdName(kind);
    const ref = { ...CRDS, name };
    this.informers?.collection(`${name} CRD`, { ...CRDS, fieldSelector: `metadata.name=${name}` });
    const cached = this.informers?.cached(ref);
    if (cached?.known) return cached.object !== undefined;
    return (await kubeCall(`detect ${name} CRD`, () => this.objects.get(ref))) !== undefined;
  }

  /** Every Gateway of the cluster: from a watch of them all (started on first use), else one LIST. */
  private async listGateways(): Promise<AnyObject[]> {
    const collection = { ...splitApiVersion(GATEWAY_KIND.apiVersion), plural: GATEWAY_KIND.plural };
    this.informers?.collection('Gateway', collection);
    const cached = this.informers?.cachedList(collection);
    if (cached) return [...cached];
    return kubeCall('list Gateways', () => this.objects.list(collection));
  }

  /** From the cache when it holds the object; its absence there is not trusted (a route applied a moment ago may not have reached it yet). */
  private async read(ref: ResourceRef, step: string, labelSelector?: string): Promise<AnyObject | undefined> {
    const cached = this.informers?.cached(ref, labelSelector ? { labelSelector } : {});
    if (cached?.known && cached.object) return cached.object;
    return kubeCall(step, () => this.objects.get(ref));
  }
}

/** A route's parentRefs that are Gateways (group and kind default to the Gateway API's), namespaces defaulted to the route's. */
function gatewayParents(route: AnyObject, namespace: string): GatewayRef[] {
  return list(field(route, 'spec', 'parentRefs')).flatMap((ref) => {
    const name = str(field(ref, 'name'));
    const isGateway = (str(field(ref, 'group')) ?? GATEWAY_GROUP) === GATEWAY_GROUP && (str(field(ref, 'kind')) ?? 'Gateway') === 'Gateway';
    return isGateway && name ? [{ name, namespace: str(field(ref, 'namespace')) || namespace }] : [];
  });
}

