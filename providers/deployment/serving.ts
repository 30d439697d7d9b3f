import type { ModelDeployment } from '../../api/types.ts';
import type { ServingEndpoint } from '../shared/gateway.ts';
import { providerResourceName } from '../shared/names.ts';
import { resolveSpec } from '../shared/spec.ts';
import { ENGINE_PORTS, MAX_BASE_NAME } from './defaults.ts';
import { deploymentEngine, selector, servingRoles } from './render.ts';

/** The first serving role's Service (the decode workers' in disaggregated mode) and its pods, on the engine's port. */
export function deploymentServingEndpoint(md: ModelDeployment): ServingEndpoint {
  const spec = resolveSpec(md);
  const [first] = servingRoles(spec, providerResourceName(spec.name, MAX_BASE_NAME));
  const port = ENGINE_PORTS[deploymentEngine(spec)];
  return { service: first!.name, port, pods: { labels: selector(spec, first!.role), port } };
}
