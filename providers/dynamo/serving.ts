import type { ModelDeployment } from '../../api/types.ts';
import type { ServingEndpoint } from '../shared/gateway.ts';
import { providerResourceName } from '../shared/names.ts';
import { FRONTEND_PORT, FRONTEND_SERVICE_KEY, FRONTEND_SERVICE_SUFFIX, MAX_GRAPH_NAME } from './defaults.ts';

/** Dynamo's operator serves the OpenAI API from the graph's Frontend: Service `<graph>-frontend`, pods labelled with the graph and component. */
export function dynamoServingEndpoint(md: ModelDeployment): ServingEndpoint {
  const graph = providerResourceName(md.metadata.name ?? '', MAX_GRAPH_NAME);
  return {
    service: `${graph}-${FRONTEND_SERVICE_SUFFIX}`,
    port: FRONTEND_PORT,
    pods: { labels: { 'nvidia.com/dynamo-component': FRONTEND_SERVICE_KEY, 'nvidia.com/dynamo-graph-deployment-name': graph }, port: FRONTEND_PORT },
  };
}
