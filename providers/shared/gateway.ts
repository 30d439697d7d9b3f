// One endpoint per model through a Gateway API Gateway: the HTTPRoute (and, where the Gateway API Inference
// Extension is installed, the InferencePool) rendered for a deployment beside its provider resource. Pure:
// what Gateway to use and whether an InferencePool CRD is served are decided by the caller (the provider
// activity reads the cluster), so the same inputs give the same bytes.
//
// How a client selects the model: every route matches the header `X-Gateway-Model-Name: <model name>` on
// any path. That is the header GAIE's body-based router sets from a request's `"model"` field, so behind a
// gateway that runs it a plain OpenAI request is routed by its body; without it, clients send the header.

import type { ModelDeployment } from '../../api/types.ts';
import type { KubernetesObject } from '../contract.ts';
import { canonicalObject } from './rendered-object.ts';
import { objectMeta } from './metadata.ts';
import { defaultServedName, resolveSpec } from './spec.ts';

export const GATEWAY_GROUP = 'gateway.networking.k8s.io';
export const HTTP_ROUTE_API_VERSION = `${GATEWAY_GROUP}/v1`;
export const INFERENCE_GROUP = 'inference.networking.k8s.io';
export const INFERENCE_POOL_API_VERSION = `${INFERENCE_GROUP}/v1`;
/** The header a route matches; GAIE's body-based router writes it from the request body's `model`. */
export const MODEL_NAME_HEADER = 'X-Gateway-Model-Name';
/** The API every built-in provider's engines serve (OpenAI-compatible /v1/completions, /v1/chat/completions). */
export const API_FORMATS = ['openai'] as const;
/** LLM answers take long: gateways' default request timeouts (often 15 s) would cut them. */
export const ROUTE_REQUEST_TIMEOUT = '300s';

export const HTTP_ROUTE_OWNED_KIND = { apiVersion: HTTP_ROUTE_API_VERSION, kind: 'HTTPRoute', plural: 'httproutes' } as const;
export const INFERENCE_POOL_OWNED_KIND = { apiVersion: INFERENCE_POOL_API_VERSION, kind: 'InferencePool', plural: 'inferencepools' } as const;
export const GATEWAY_KIND = { apiVersion: HTTP_ROUTE_API_VERSION, kind: 'Gateway', plural: 'gateways' } as const;

/** Where a provider's model is served: the Service a route sends requests to, and the pods behind it. */
export interface ServingEndpoint {
  /** The Service (the one `status.endpoint` names) and its port. */
  service: string;
  port: number;
  /** Labels that select the serving pods (what an InferencePool selects) and the port their server listens on. */
  pods: { labels: Readonly<Record<string, string>>; port: number };
}

export interface GatewayRef {
  name: string;
  namespace: string;
}

/** What the provider activity found out about routing this deployment; `undefined` gateway: no route. */
export interface GatewayPlan {
  gateway?: GatewayRef;
  /** Render an InferencePool and point the route at it (its CRD is served and the controller is told to use it). */
  inferencePool?: { endpointPicker?: { name: string; port: number } };
}

/**
 * The model name clients send: spec.gateway.modelName; else the name the server answers to (servedName,
 * by default the last segment of a HuggingFace id, as admission fills it in); else, for a custom image,
 * model.id; else the deployment's name. The same whether or not admission defaulted the spec.
 */
export function gatewayModelName(md: ModelDeployment): string {
  const { gateway, model } = md.spec;
  if (gateway?.modelName) return gateway.modelName;
  const id = model?.id || undefined;
  if (model?.source !== 'custom' && id) return model?.servedName || defaultServedName(id);
  return id || md.metadata.name || '';
}

/** Whether the deployment wants a route and names no route of its own (the controller then creates one). */
export function wantsManagedRoute(md: ModelDeployment): boolean {
  return md.spec.gateway?.enabled !== false && !md.spec.gateway?.httpRouteRef;
}

/** The HTTPRoute and InferencePool for a deployment (either may be absent), each sorted for server-side apply. */
export function renderGatewayObjects(md: ModelDeployment, serving: ServingEndpoint, plan: GatewayPlan): KubernetesObject[] {
  if (!plan.gateway || md.spec.gateway?.enabled === false) return [];
  const spec = resolveSpec(md);
  const out: KubernetesObject[] = [];
  if (plan.inferencePool) out.push(inferencePool(objectMeta(spec), serving, plan.inferencePool.endpointPicker));
  if (wantsManagedRoute(md)) out.push(httpRoute(objectMeta(spec), gatewayModelName(md), plan.gateway, backendOf(spec.name, serving, plan)));
  return out.map(canonicalObject);
}

function backendOf(name: string, serving: ServingEndpoint, plan: GatewayPlan): Record<string, unknown> {
  // A pool's port is left out: the gateway asks the endpoint picker which pod and port to use.
  if (plan.inferencePool) return { group: INFERENCE_GROUP, kind: 'InferencePool', name };
  return { group: '', kind: 'Service', name: serving.service, port: serving.port };
}

function httpRoute(metadata: KubernetesObject['metadata'], modelName: string, gateway: GatewayRef, backend: Record<string, unknown>): KubernetesObject {
  return {
    apiVersion: HTTP_ROUTE_API_VERSION,
    kind: 'HTTPRoute',
    metadata,
    spec: {
      parentRefs: [{ group: GATEWAY_GROUP, kind: 'Gateway', name: gateway.name, namespace: gateway.namespace }],
      rules: [
        {
          backendRefs: [{ ...backend, weight: 1 }],
          matches: [{ headers: [{ name: MODEL_NAME_HEADER, type: 'Exact', value: modelName }], path: { type: 'PathPrefix', value: '/' } }],
          timeouts: { request: ROUTE_REQUEST_TIMEOUT },
        },
      ],
    },
  };
}

function inferencePool(metadata: KubernetesObject['metadata'], serving: ServingEndpoint, picker: { name: string; port: number } | undefined): KubernetesObject {
  return {
    apiVersion: INFERENCE_POOL_API_VERSION,
    kind: 'InferencePool',
    metadata,
    spec: {
      selector: { matchLabels: { ...serving.pods.labels } },
      targetPorts: [{ number: serving.pods.port }],
      ...(picker ? { endpointPickerRef: { failureMode: 'FailClose', kind: 'Service', name: picker.name, port: { number: picker.port } } } : {}),
    },
  };
}
