import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { CLUSTER_DNS_IP, NODE_IP } from './network.ts';

// Services of the cluster whose servers are the stack's own processes on the node's address, not pods:
// cluster DNS (CoreDNS) as `kube-system/kube-dns`, as kubeadm names it, and the stack's Temporal server as
// `temporal/temporal-frontend` on port 7233, the address the Temporal Helm chart gives its frontend and
// the one install.yaml's ConfigMap names by default, so the product's manifests install here unchanged.
// Each is a Service without a selector plus an EndpointSlice naming the node's address, as for any
// server outside the cluster's pods.

const FIELD_MANAGER = 'kubeairunway-devstack';

interface ExternalService {
  namespace: string;
  name: string;
  clusterIP?: string;
  ports: { name: string; port: number; targetPort: number; protocol: 'TCP' | 'UDP' }[];
}

export function clusterServices(temporalPort: number): ExternalService[] {
  return [
    {
      namespace: 'kube-system',
      name: 'kube-dns',
      clusterIP: CLUSTER_DNS_IP,
      ports: [
        { name: 'dns', port: 53, targetPort: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, targetPort: 53, protocol: 'TCP' },
      ],
    },
    { namespace: 'temporal', name: 'temporal-frontend', ports: [{ name: 'grpc-rpc', port: 7233, targetPort: temporalPort, protocol: 'TCP' }] },
  ];
}

function serviceObjects(s: ExternalService): AnyObject[] {
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: s.name, namespace: s.namespace, labels: { 'app.kubernetes.io/managed-by': FIELD_MANAGER } },
    spec: { ...(s.clusterIP ? { clusterIP: s.clusterIP } : {}), ports: s.ports.map(({ name, port, targetPort, protocol }) => ({ name, port, targetPort, protocol })) },
  };
  const slice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${s.name}-node`,
      namespace: s.namespace,
      labels: { 'kubernetes.io/service-name': s.name, 'endpointslice.kubernetes.io/managed-by': `${FIELD_MANAGER}.kubeairunway.ai` },
    },
    addressType: 'IPv4',
    endpoints: [{ addresses: [NODE_IP], conditions: { ready: true } }],
    ports: s.ports.map(({ name, targetPort, protocol }) => ({ name, port: targetPort, protocol })),
  };
  return [service, slice];
}

/** Creates (or updates) the namespaces, Services and EndpointSlices above. */
export async function applyClusterServices(kc: KubeConfig, temporalPort: number): Promise<void> {
  const objects = new CustomObjects(kc);
  for (const s of clusterServices(temporalPort)) {
    await objects.apply({ group: '', version: 'v1', plural: 'namespaces', name: s.namespace }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: s.namespace } }, FIELD_MANAGER);
    const [service, slice] = serviceObjects(s);
    await objects.apply({ group: '', version: 'v1', plural: 'services', namespace: s.namespace, name: s.name }, service!, FIELD_MANAGER);
    await objects.apply({ group: 'discovery.k8s.io', version: 'v1', plural: 'endpointslices', namespace: s.namespace, name: `${s.name}-node` }, slice!, FIELD_MANAGER);
  }
}
