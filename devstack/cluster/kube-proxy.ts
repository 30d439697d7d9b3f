import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startProcess, waitUntil, type ManagedProcess } from '../process.ts';
import { inNetns, POD_CIDR } from './network.ts';

/**
 * kube-proxy in iptables mode, in the stack's namespace: Services route there (the rules are the
 * namespace's own). It leaves the conntrack table's size and timeouts alone: those are the host kernel's.
 */
export async function startKubeProxy(bin: string, stateDir: string, kubeconfig: string, nodeName: string, ports: { healthz: number; metrics: number }, netns: string): Promise<ManagedProcess> {
  const config = {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    hostnameOverride: nodeName,
    mode: 'iptables',
    clusterCIDR: POD_CIDR,
    healthzBindAddress: `127.0.0.1:${ports.healthz}`,
    metricsBindAddress: `127.0.0.1:${ports.metrics}`,
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  };
  const file = join(stateDir, 'kube-proxy.yaml');
  writeFileSync(file, stringify(config));
  const proc = startProcess('kube-proxy', ...inNetns(netns, bin, [`--config=${file}`, '--v=1']), join(stateDir, 'kube-proxy.log'));
  await waitUntil(proc, 'healthy', 120_000, async () => (await fetch(`http://127.0.0.1:${ports.healthz}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok);
  return proc;
}
