import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, waitUntil, type ManagedProcess } from '../process.ts';
import { CLUSTER_DOMAIN, inNetns, NODE_IP } from './network.ts';

/**
 * CoreDNS serving the cluster's names from the API server (its kubernetes plugin), on the node's address
 * inside the stack's namespace; the `kube-dns` Service in kube-system points at it (cluster-services.ts).
 * No forwarding: nothing outside the namespace is reachable, so other names fail at once.
 */
export async function startCoreDns(bin: string, stateDir: string, kubeconfig: string, ports: { health: number; ready: number }, netns: string): Promise<ManagedProcess> {
  const corefile = [
    `.:53 {`,
    `    bind ${NODE_IP}`,
    '    errors',
    `    health 127.0.0.1:${ports.health}`,
    `    ready 127.0.0.1:${ports.ready}`,
    `    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {`,
    `        kubeconfig ${kubeconfig}`,
    '        pods insecure',
    '        fallthrough in-addr.arpa ip6.arpa',
    '        ttl 5',
    '    }',
    '    cache 5',
    '}',
    '',
  ].join('\n');
  const file = join(stateDir, 'Corefile');
  writeFileSync(file, corefile);
  const proc = startProcess('coredns', ...inNetns(netns, bin, ['-conf', file]), join(stateDir, 'coredns.log'));
  await waitUntil(proc, 'ready', 60_000, async () => (await fetch(`http://127.0.0.1:${ports.ready}/ready`, { signal: AbortSignal.timeout(2_000) })).ok);
  return proc;
}
