import { join } from 'node:path';
import { probe } from '../http.ts';
import { startProcess, waitUntil, type ManagedProcess } from '../process.ts';
import { inNetns } from './network.ts';

/** The scheduler, in the stack's namespace; its secure port on the namespace's loopback (relayed for the probe). */
export async function startKubeScheduler(bin: string, stateDir: string, kubeconfig: string, port: number, netns: string): Promise<ManagedProcess> {
  const args = [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    '--v=1',
  ];
  const proc = startProcess('kube-scheduler', ...inNetns(netns, bin, args), join(stateDir, 'kube-scheduler.log'));
  await waitUntil(proc, 'healthy', 120_000, async () => (await probe(`https://127.0.0.1:${port}/healthz`)).status === 200);
  return proc;
}
