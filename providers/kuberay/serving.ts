import type { ModelDeployment } from '../../api/types.ts';
import type { ServingEndpoint } from '../shared/gateway.ts';
import { providerResourceName } from '../shared/names.ts';
import { KUBERAY_RESOURCE } from './config.ts';
import { MAX_RAYSERVICE_NAME, SERVE_PORT, SERVE_SERVICE_SUFFIX } from './defaults.ts';

/**
 * KubeRay serves a RayService through `<name>-serve-svc` (port 8000) to the pods running a Serve proxy
 * (`ray.io/serve`); its pods carry the RayService they came from (the cluster's own name changes on
 * every zero-downtime upgrade, so it is not selected on).
 */
export function kuberayServingEndpoint(md: ModelDeployment): ServingEndpoint {
  const name = providerResourceName(md.metadata.name ?? '', MAX_RAYSERVICE_NAME);
  return {
    service: `${name}-${SERVE_SERVICE_SUFFIX}`,
    port: SERVE_PORT,
    pods: { labels: { 'ray.io/originated-from-cr-name': name, 'ray.io/originated-from-crd': KUBERAY_RESOURCE.kind, 'ray.io/serve': 'true' }, port: SERVE_PORT },
  };
}
