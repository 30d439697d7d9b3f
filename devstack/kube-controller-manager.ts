import { join } from 'node:path';
import { probe } from './http.ts';
import { freePort } from './ports.ts';
import { inNetns } from './cluster/network.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';

/** The cluster mode's controller manager: in the stack's network namespace, every default controller. */
export interface ControllerManagerInCluster {
  netns: string;
  /** The CA pods trust (published in every namespace as kube-root-ca.crt). */
  caFile: string;
  /** The service-account signing key (the API server's), for the token controller. */
  serviceAccountKeyFile: string;
}

/**
 * Outside the cluster mode, runs only the garbage collector (owner references) and the namespace
 * controller (namespace deletion); everything else a real cluster runs would need nodes and kubelets
 * that stack lacks. In the cluster mode, every controller a cluster runs by default (Deployments,
 * ReplicaSets, EndpointSlices, service accounts and their CA, node lifecycle, volumes, ...).
 */
export async function startKubeControllerManager(bin: string, stateDir: string, kubeconfig: string, fixedPort?: number, cluster?: ControllerManagerInCluster): Promise<ManagedProcess> {
  const port = fixedPort ?? (await freePort());
  const controllers = cluster
    ? ['--controllers=*', `--root-ca-file=${cluster.caFile}`, `--service-account-private-key-file=${cluster.serviceAccountKeyFile}`]
    : ['--controllers=garbage-collector-controller,namespace-controller'];
  const args = [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    ...controllers,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    '--use-service-account-credentials=false',
    '--v=1',
  ];
  const proc = startProcess('kube-controller-manager', ...inNetns(cluster?.netns, bin, args), join(stateDir, 'kube-controller-manager.log'));
  // /healthz is on the always-allowed list, so an anonymous probe answers once the server is up.
  await waitUntil(proc, 'healthy', 120_000, async () => (await probe(`https://127.0.0.1:${port}/healthz`)).status === 200);
  return proc;
}
