// The cluster mode's Gateway: the Gateway API's own CRDs (at the version Traefik implements, kept beside its
// binary by `npm run tools`), Traefik as the Gateway controller and data plane in one process inside the
// stack's namespace (like CoreDNS), and a GatewayClass and Gateway for ModelDeployments' routes. Traefik
// listens on the node's addresses at `port`, which the relay exposes on the host's loopback at the same
// port: `status.gateway.endpoint` (http://127.0.0.1:<port>) is then callable from this machine as it is.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GATEWAY_API_CRD_DIR } from '../../tools/versions.ts';
import { startProcess, waitUntil, type ManagedProcess } from '../process.ts';
import { kubectl } from './kubectl.ts';
import { inNetns } from './network.ts';

/** Traefik's Gateway controller name, as its GatewayClass must say it. */
const TRAEFIK_CONTROLLER = 'traefik.io/gateway-controller';
/** Where the cluster mode's Gateway lives; it is labelled as the one deployments use (activities/provider/gateway-lookup.ts). */
const CLUSTER_GATEWAY = { name: 'inference', namespace: 'gateways', className: 'traefik' } as const;

export interface ClusterGateway {
  process: ManagedProcess;
  /** The host-reachable base URL of the Gateway's HTTP listener. */
  url: string;
}

export async function startGateway(opts: { bin: string; stateDir: string; kubeconfig: string; netns: string; port: number; pingPort: number }): Promise<ClusterGateway> {
  const crdDir = join(dirname(opts.bin), GATEWAY_API_CRD_DIR);
  for (const file of readdirSync(crdDir).sort()) await kubectl(opts.kubeconfig, ['apply', '--server-side', '-f', join(crdDir, file)], 60_000);
  await kubectl(opts.kubeconfig, ['wait', '--for=condition=Established', '--timeout=60s', 'crd/gateways.gateway.networking.k8s.io', 'crd/httproutes.gateway.networking.k8s.io'], 70_000);
  const args = [
    `--entryPoints.web.address=:${opts.port}`,
    `--entryPoints.ping.address=127.0.0.1:${opts.pingPort}`,
    '--ping=true',
    '--ping.entryPoint=ping',
    '--providers.kubernetesGateway=true',
    // The address the Gateway reports (its status.addresses), from which each deployment's endpoint is built.
    '--providers.kubernetesGateway.statusAddress.ip=127.0.0.1',
    '--log.level=INFO',
    '--global.checkNewVersion=false',
    '--global.sendAnonymousUsage=false',
  ];
  const proc = startProcess('traefik', ...inNetns(opts.netns, opts.bin, args), join(opts.stateDir, 'traefik.log'), { KUBECONFIG: opts.kubeconfig });
  await waitUntil(proc, 'ready', 60_000, async () => (await fetch(`http://127.0.0.1:${opts.pingPort}/ping`, { signal: AbortSignal.timeout(2_000) })).ok);
  await kubectl(opts.kubeconfig, ['apply', '-f', '-'], 30_000, JSON.stringify(gatewayObjects(opts.port)));
  await kubectl(opts.kubeconfig, ['-n', CLUSTER_GATEWAY.namespace, 'wait', '--for=condition=Programmed', '--timeout=60s', `gateway/${CLUSTER_GATEWAY.name}`], 70_000);
  return { process: proc, url: `http://127.0.0.1:${opts.port}` };
}

/** The GatewayClass for Traefik and the Gateway every namespace's routes may attach to, on Traefik's entry point. */
function gatewayObjects(port: number): unknown {
  return {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: CLUSTER_GATEWAY.namespace } },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: CLUSTER_GATEWAY.className }, spec: { controllerName: TRAEFIK_CONTROLLER } },
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: CLUSTER_GATEWAY.name, namespace: CLUSTER_GATEWAY.namespace, labels: { 'kubeairunway.ai/inference-gateway': 'true' } },
        spec: {
          gatewayClassName: CLUSTER_GATEWAY.className,
          listeners: [{ name: 'web', protocol: 'HTTP', port, allowedRoutes: { namespaces: { from: 'All' } } }],
        },
      },
    ],
  };
}
