// The graph in nvidia.com/v1alpha1 (deprecated upstream, still what the seed's examples show):
// `spec.services` is a map from component name to service; the role is `componentType` (+
// `subComponentType` for prefill/decode); resources are Dynamo's own {cpu, memory, gpu} strings; the
// HuggingFace token is `envFromSecret`; pod labels and annotations sit on the service; the main
// container, pod scheduling and the storage volumes go in `extraPodSpec` (native pod volumes and
// mounts, not Dynamo's own `pvcs`/`volumeMounts`, which only v1alpha1 has: one form for both versions). Every field is one the upstream v1alpha1 schema
// declares (checked by render.test.ts against the upstream CRD when it is at hand).

import type { Graph, GraphComponent } from './components.ts';

export function servicesV1alpha1(graph: Graph, graphName: string): Record<string, unknown> {
  return Object.fromEntries(graph.components.map((c) => [c.name, service(graph, graphName, c)]));
}

function service(graph: Graph, graphName: string, c: GraphComponent): Record<string, unknown> {
  const { gpu, memory, cpu } = c.limits ?? {};
  return {
    componentType: c.role === 'frontend' ? 'frontend' : 'worker',
    ...(c.role === 'prefill' || c.role === 'decode' ? { subComponentType: c.role } : {}),
    // Deprecated upstream (the operator derives it from the graph's namespace and name) but still read
    // by operators of the seed's era; same value either way.
    dynamoNamespace: graphName,
    replicas: c.replicas,
    ...(c.requests ? { resources: { requests: c.requests } } : {}),
    ...(c.limits
      ? { resources: { limits: { ...(gpu !== undefined ? { gpu: String(gpu) } : {}), ...(memory ? { memory } : {}), ...(cpu ? { cpu } : {}) } } }
      : {}),
    ...(graph.envSecret ? { envFromSecret: graph.envSecret } : {}),
    ...(graph.podLabels ? { labels: graph.podLabels } : {}),
    ...(graph.podAnnotations ? { annotations: graph.podAnnotations } : {}),
    extraPodSpec: {
      mainContainer: {
        image: c.container.image,
        ...(c.container.command ? { command: c.container.command } : {}),
        ...(c.container.args ? { args: c.container.args } : {}),
        ...(c.container.env.length > 0 ? { env: c.container.env } : {}),
        ...(c.mountsStorage && graph.mounts.length > 0 ? { volumeMounts: graph.mounts } : {}),
      },
      ...(graph.nodeSelector ? { nodeSelector: graph.nodeSelector } : {}),
      ...(graph.tolerations.length > 0 ? { tolerations: graph.tolerations } : {}),
      ...(c.mountsStorage && graph.volumes.length > 0 ? { volumes: graph.volumes } : {}),
    },
  };
}
