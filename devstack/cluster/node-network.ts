import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLUSTER_DNS_IP, CLUSTER_DOMAIN, netnsPath, NODE_IP, POD_CIDR } from './network.ts';

// The node's side of the cluster network: the node container joins the stack's namespace (its containerd
// and kubelet run there, so pods' veths and the bridge are made there too), its pods get addresses from a
// CNI bridge with host-local IPAM, and the kubelet serves the API server (logs, exec, port-forward) on the
// node's address, authenticating it by the cluster CA's client certificate.

export interface NodeInCluster {
  netns: string;
  /** Where the CNI plugins (bridge, host-local, loopback, portmap) were built. */
  cniBinDir: string;
  /** The cluster CA: the kubelet accepts client certificates it signed (the API server's). */
  caFile: string;
  nodeIp: string;
  /** Makes a port of the namespace's loopback reachable from the host (the relay). */
  reach(port: number): Promise<void>;
}

export const CNI_PLUGINS = ['bridge', 'host-local', 'loopback', 'portmap'] as const;
/** Where the namespace is mounted inside the node container. */
const NETNS_IN_NODE = '/run/kubeairunway-netns';

export function nodeInCluster(netns: string, cniBinDir: string, caFile: string, reach: (port: number) => Promise<void>): NodeInCluster {
  return { netns, cniBinDir, caFile, nodeIp: NODE_IP, reach };
}

/** docker run flags and the wrap of the node's script that put it in the namespace. */
export function nodeNetworkFlags(cluster: NodeInCluster): { flags: string[]; wrap: (script: string) => string } {
  return {
    flags: ['--network=none', `--volume=${netnsPath(cluster.netns)}:${NETNS_IN_NODE}:ro`],
    wrap: (script) => `exec nsenter --net=${NETNS_IN_NODE} /bin/sh -c ${shellQuote(script)}`,
  };
}

const shellQuote = (s: string) => `'${s.replaceAll("'", `'"'"'`)}'`;

/** The CNI plugins copied beside containerd and a bridge network for pods. */
export function podNetworkConfig(cluster: NodeInCluster, cniDir: string): void {
  const bin = join(cniDir, 'bin');
  const conf = join(cniDir, 'net.d');
  for (const d of [bin, conf]) mkdirSync(d, { recursive: true });
  for (const plugin of CNI_PLUGINS) copyFileSync(join(cluster.cniBinDir, plugin), join(bin, plugin));
  // A node of a plain stack that ran in this folder before left its loopback-only network.
  for (const old of readdirSync(conf)) if (old !== '10-pods.conflist') rmSync(join(conf, old), { force: true });
  const network = {
    cniVersion: '1.0.0',
    name: 'kubeairunway-pods',
    plugins: [
      {
        type: 'bridge',
        bridge: 'cni0',
        isGateway: true,
        ipMasq: true,
        // A pod calling a Service whose endpoint is itself comes back through the bridge.
        hairpinMode: true,
        ipam: { type: 'host-local', ranges: [[{ subnet: POD_CIDR }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: join(cniDir, 'ipam') },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
  writeFileSync(join(conf, '10-pods.conflist'), JSON.stringify(network, null, 2));
}

/** What the kubelet's configuration says differently on a cluster's node. */
export function clusterKubeletSettings(cluster: NodeInCluster, kubeletDir: string): Record<string, unknown> {
  // No upstream resolver: the namespace has no way out, so names outside the cluster do not resolve.
  const resolvConf = join(kubeletDir, 'resolv.conf');
  writeFileSync(resolvConf, '');
  return {
    address: cluster.nodeIp,
    port: 10250,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: false }, x509: { clientCAFile: cluster.caFile } },
    authorization: { mode: 'AlwaysAllow' },
    clusterDNS: [CLUSTER_DNS_IP],
    clusterDomain: CLUSTER_DOMAIN,
    resolvConf,
  };
}
