// What a deployment's route reports, read from the HTTPRoute's `status.parents[]` as the Gateway's
// controller writes it (Accepted, ResolvedRefs) and from the Gateway's `status.addresses`: the
// GatewayReady condition and `status.gateway`. Pure, like every status mapping.

import { isPlainObject as isObject } from '../../api/overrides.ts';
import type { GatewayStatus, ModelDeployment } from '../../api/types.ts';
import type { UnifiedCondition } from '../contract.ts';
import { API_FORMATS, GATEWAY_GROUP, gatewayModelName, type GatewayRef } from './gateway.ts';

export const GATEWAY_READY = 'GatewayReady';

export interface GatewayReport {
  condition: UnifiedCondition;
  status: GatewayStatus;
}

interface RouteCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

interface ParentStatus {
  parentRef?: { group?: string; kind?: string; name?: string; namespace?: string };
  conditions?: RouteCondition[];
}

interface Listener {
  name?: string;
  port?: number;
  protocol?: string;
}

/**
 * GatewayReady and `status.gateway` for a deployment routed through `gateway` by the route `route`
 * (ours, or the user's httpRouteRef); `gatewayObject` is the live Gateway when it could be read.
 */
export function gatewayReport(md: ModelDeployment, gateway: GatewayRef, routeName: string, route: unknown, gatewayObject: unknown): GatewayReport {
  const status: GatewayStatus = {
    endpoint: endpointOf(gatewayObject),
    modelName: gatewayModelName(md),
    gatewayName: gateway.name,
    gatewayNamespace: gateway.namespace,
    apiFormats: [...API_FORMATS],
  };
  return { condition: routeCondition(gateway, routeName, route, gatewayObject), status };
}

function routeCondition(gateway: GatewayRef, routeName: string, route: unknown, gatewayObject: unknown): UnifiedCondition {
  const where = `Gateway '${gateway.namespace}/${gateway.name}'`;
  if (gatewayObject === undefined) return gatewayNotReady('GatewayNotFound', `${where} not found: create it, or name another with spec.gateway.gatewayRef`);
  if (!isObject(route)) return gatewayNotReady('RouteNotCreated', `HTTPRoute '${routeName}' not found`);
  const generation = isObject(route.metadata) && typeof route.metadata.generation === 'number' ? route.metadata.generation : undefined;
  const parent = parentsOf(route).find((p) => refersTo(p, gateway, route));
  const current = (type: string) => parent?.conditions?.find((c) => c.type === type && (generation === undefined || c.observedGeneration === undefined || c.observedGeneration === generation));
  const accepted = current('Accepted');
  const resolved = current('ResolvedRefs');
  if (!accepted) return { type: GATEWAY_READY, status: 'Unknown', reason: 'RoutePending', message: `Waiting for ${where} to accept HTTPRoute '${routeName}'` };
  if (accepted.status !== 'True') return gatewayNotReady(accepted.reason || 'NotAccepted', `${where} did not accept HTTPRoute '${routeName}'${detail(accepted)}`);
  if (resolved && resolved.status !== 'True') return gatewayNotReady(resolved.reason || 'UnresolvedRefs', `${where} cannot resolve the backend of HTTPRoute '${routeName}'${detail(resolved)}`);
  return { type: GATEWAY_READY, status: 'True', reason: 'RouteAccepted', message: `HTTPRoute '${routeName}' accepted by ${where}` };
}

/** GatewayReady=False with the reason and message the user sees. */
export function gatewayNotReady(reason: string, message: string): UnifiedCondition {
  return { type: GATEWAY_READY, status: 'False', reason, message };
}

function detail(c: RouteCondition): string {
  const parts = [c.reason, c.message].filter((s): s is string => !!s);
  return parts.length > 0 ? ` (${parts.join(': ')})` : '';
}

function parentsOf(route: Record<string, unknown>): ParentStatus[] {
  const status = route.status;
  if (!isObject(status) || !Array.isArray(status.parents)) return [];
  return status.parents.filter(isObject) as ParentStatus[];
}

/** A parentRef names our Gateway: the group and kind default to the Gateway API's, the namespace to the route's. */
function refersTo(parent: ParentStatus, gateway: GatewayRef, route: Record<string, unknown>): boolean {
  const ref = parent.parentRef ?? {};
  const routeNamespace = isObject(route.metadata) && typeof route.metadata.namespace === 'string' ? route.metadata.namespace : undefined;
  return (ref.group ?? GATEWAY_GROUP) === GATEWAY_GROUP && (ref.kind ?? 'Gateway') === 'Gateway' && ref.name === gateway.name && (ref.namespace ?? routeNamespace) === gateway.namespace;
}

/** `http://<first address>[:<port>]` of the Gateway's first HTTP listener; empty until the Gateway reports an address. */
export function endpointOf(gatewayObject: unknown): string {
  if (!isObject(gatewayObject)) return '';
  const status = isObject(gatewayObject.status) ? gatewayObject.status : {};
  const addresses = Array.isArray(status.addresses) ? status.addresses.filter(isObject) : [];
  const address = addresses.map((a) => a.value).find((v): v is string => typeof v === 'string' && v !== '');
  if (!address) return '';
  const spec = isObject(gatewayObject.spec) ? gatewayObject.spec : {};
  const listeners = (Array.isArray(spec.listeners) ? spec.listeners.filter(isObject) : []) as Listener[];
  const http = listeners.find((l) => l.protocol === 'HTTP') ?? listeners.find((l) => l.protocol === 'HTTPS');
  const scheme = http?.protocol === 'HTTPS' ? 'https' : 'http';
  const host = address.includes(':') ? `[${address}]` : address;
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${host}${http?.port && http.port !== defaultPort ? `:${http.port}` : ''}`;
}
