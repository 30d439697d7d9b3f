// The graph in nvidia.com/v1beta1 (the storage version of today's CRD): `spec.components` is a list
// keyed by `name`; the role is `type` (frontend, worker, prefill, decode are first-class values);
// everything about the pod is one native PodTemplateSpec in `podTemplate`, whose container named
// `main` is the one the operator fills with its defaults (the schema says so). So v1alpha1's
// service-level fields move into the pod template: resources become the main container's
// ResourceRequirements (GPUs as `nvidia.com/gpu`, v1alpha1's default GPU type), `envFromSecret`
// becomes an `envFrom` secretRef of the main container, labels and annotations become the template's
// metadata. There is no dynamoNamespace: the operator derives it from the graph's namespace and name.

import type { Graph, GraphComponent } from './components.ts';

/** The container name the operator merges its defaults into (upstream `podTemplate` description). */
export const MAIN_CONTAINER = 'main';
const GPU_RESOURCE = 'nvidia.com/gpu';

export function componentsV1beta1(graph: Graph): Record<string, unknown>[] {
  return graph.components.map((c) => component(graph, c));
}

function component(graph: Graph, c: GraphComponent): Record<string, unknown> {
  const metadata = {
    ...(graph.podLabels ? { labels: graph.podLabels } : {}),
    ...(graph.podAnnotations ? { annotations: graph.podAnnotations } : {}),
  };
  return {
    name: c.name,
    type: c.role === 'aggregated' ? 'worker' : c.role,
    replicas: c.replicas,
    podTemplate: {
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      spec: {
        containers: [mainContainer(graph, c)],
        ...(graph.nodeSelector ? { nodeSelector: graph.nodeSelector } : {}),
        ...(graph.tolerations.length > 0 ? { tolerations: graph.tolerations } : {}),
        ...(c.mountsStorage && graph.volumes.length > 0 ? { volumes: graph.volumes } : {}),
      },
    },
  };
}

function mainContainer(graph: Graph, c: GraphComponent): Record<string, unknown> {
  const { gpu, memory, cpu } = c.limits ?? {};
  const limits = { ...(gpu !== undefined ? { [GPU_RESOURCE]: String(gpu) } : {}), ...(memory ? { memory } : {}), ...(cpu ? { cpu } : {}) };
  const resources = { ...(c.requests ? { requests: c.requests } : {}), ...(Object.keys(limits).length > 0 ? { limits } : {}) };
  return {
    name: MAIN_CONTAINER,
    image: c.container.image,
    ...(c.container.command ? { command: c.container.command } : {}),
    ...(c.container.args ? { args: c.container.args } : {}),
    ...(c.container.env.length > 0 ? { env: c.container.env } : {}),
    ...(graph.envSecret ? { envFrom: [{ secretRef: { name: graph.envSecret } }] } : {}),
    ...(Object.keys(resources).length > 0 ? { resources } : {}),
    ...(c.mountsStorage && graph.mounts.length > 0 ? { volumeMounts: graph.mounts } : {}),
  };
}
