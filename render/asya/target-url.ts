// ASYA_TARGET_URL, the server a binding actor's runtime forwards each message to: `runtime.targetURL` as
// written, or the cluster DNS name of `runtime.targetService`. A ModelDeployment target names its
// server in status.endpoint instead, read by endpointUrl. Pure.

import type { RuntimeSpec } from '../../api/asya/types.ts';
import { DEFAULT_TARGET_PROTOCOL } from '../../api/asya/defaults.ts';

/** Undefined when the runtime names neither (allowed only for a ModelDeployment target). */
export function targetUrl(runtime: Pick<RuntimeSpec, 'targetURL' | 'targetService'>, actorNamespace: string): string | undefined {
  if (runtime.targetURL) return runtime.targetURL;
  const service = runtime.targetService;
  if (!service) return undefined;
  const protocol = service.protocol ?? DEFAULT_TARGET_PROTOCOL;
  return `${protocol}://${service.name}.${service.namespace ?? actorNamespace}.svc.cluster.local:${service.port}${service.path ?? ''}`;
}

/**
 * The URL of a ModelDeployment's status.endpoint ({service, port}, in the ModelDeployment's namespace);
 * undefined until the provider has reported one. Every provider serves plain HTTP inside the cluster.
 */
export function endpointUrl(endpoint: { service?: string; port?: number } | undefined, namespace: string): string | undefined {
  if (!endpoint?.service || !endpoint.port) return undefined;
  return `http://${endpoint.service}.${namespace}.svc.cluster.local:${endpoint.port}`;
}
