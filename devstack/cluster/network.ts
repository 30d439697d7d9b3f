import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// The cluster mode's network: one network namespace of the stack's own, holding every server of the
// stack (etcd, the API server, Temporal, ...), the node (its containerd and kubelet) and, below it, the
// pods' bridge. Inside it: loopback, a veth pair carrying the node's address (a veth because this kernel
// has no dummy interfaces; both ends stay inside), and a default route into that veth so components that
// look for "the default interface" find one. Packets for anywhere else go nowhere: nothing in the
// namespace is connected to the host's network, and the host's network is never changed.

/** The node's address: the API server advertises it, the kubelet reports it, pods reach the stack on it. */
export const NODE_IP = '10.250.0.1';
const NODE_PEER_IP = '10.250.0.2';
/** Pod addresses, on the node's bridge (CNI bridge + host-local). */
export const POD_CIDR = '10.244.0.0/24';
/** Service cluster IPs; the first is the `kubernetes` Service's, the tenth the cluster DNS's (as kubeadm). */
export const SERVICE_CIDR = '10.96.0.0/16';
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
export const CLUSTER_DNS_IP = '10.96.0.10';
export const CLUSTER_DOMAIN = 'cluster.local';
const NODE_LINK = 'kar-node';
const PEER_LINK = 'kar-peer';

/** The namespace of a state folder: one per folder, so a later start finds (and removes) a leftover. */
export function netnsName(stateDir: string): string {
  return `kar-${createHash('sha256').update(stateDir).digest('hex').slice(0, 10)}`;
}

/** `bin args` run inside `netns` (ip netns exec execs it: the process id is the program's own). */
export function inNetns(netns: string | undefined, bin: string, args: string[]): [string, string[]] {
  return netns ? ['ip', ['netns', 'exec', netns, bin, ...args]] : [bin, args];
}

export const netnsPath = (name: string) => `/run/netns/${name}`;

function ip(args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
}

/** Why the cluster network cannot be made here, or undefined. */
export function clusterNetworkUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: the cluster mode makes a network namespace of its own (ip netns), which needs root';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
  } catch {
    return "no `ip` command (Debian's iproute2)";
  }
  return undefined;
}

/** Makes the namespace (removing a leftover of the same name first) and its links, addresses and route. */
export function createClusterNetns(name: string): void {
  removeClusterNetns(name);
  ip(['netns', 'add', name]);
  const inside = (...args: string[]) => ip(['-n', name, ...args]);
  inside('link', 'set', 'lo', 'up');
  inside('link', 'add', NODE_LINK, 'type', 'veth', 'peer', 'name', PEER_LINK);
  inside('addr', 'add', `${NODE_IP}/24`, 'dev', NODE_LINK);
  inside('addr', 'add', `${NODE_PEER_IP}/24`, 'dev', PEER_LINK);
  inside('link', 'set', NODE_LINK, 'up');
  inside('link', 'set', PEER_LINK, 'up');
  inside('route', 'add', 'default', 'via', NODE_PEER_IP, 'dev', NODE_LINK);
}

/**
 * Removes the namespace: its links, bridge, pods' veths and rules go with it once no process holds it
 * (the stack stops its processes first).
 */
export function removeClusterNetns(name: string): void {
  if (!existsSync(netnsPath(name))) return;
  ip(['netns', 'del', name]);
}
