import type { ModelDeployment } from '../../api/types.ts';
import type { ServingEndpoint } from '../shared/gateway.ts';
import { providerResourceName } from '../shared/names.ts';
import { LLAMACPP_PORT, MAX_WORKSPACE_NAME, WORKSPACE_SERVICE_PORT } from './defaults.ts';

/** KAITO serves a Workspace through a Service of the Workspace's name (port 80) to its pods' port 5000, pods labelled with the Workspace. */
export function kaitoServingEndpoint(md: ModelDeployment): ServingEndpoint {
  const workspace = providerResourceName(md.metadata.name ?? '', MAX_WORKSPACE_NAME);
  return { service: workspace, port: WORKSPACE_SERVICE_PORT, pods: { labels: { 'kaito.sh/workspace': workspace }, port: LLAMACPP_PORT } };
}
