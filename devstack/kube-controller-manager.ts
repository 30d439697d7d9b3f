import { join } from 'node:path';
import { probe } from './http.ts';
import { freePort } from './ports.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';

/**
 * Runs only the garbage collector (owner references) and the namespace controller (namespace
 * deletion); everything else a real cluster runs would need nodes and kubelets this stack lacks.
 */
export async function startKubeControllerManager(bin: string, stateDir: string, kubeconfig: string, fixedPort?: number): Promise<ManagedProcess> {
  const port = fixedPort ?? (await freePort());
  const proc = startProcess(
    'kube-controller-manager',
    bin,
    [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      '--controllers=garbage-collector-controller,namespace-controller',
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      '--use-service-account-credentials=false',
      '--v=1',
    ],
    join(stateDir, 'kube-controller-manager.log'),
  );
  // /healthz is on the always-allowed list, so an anonymous probe answers once the server is up.
  await waitUntil(proc, 'healthy', 120_000, async () => (await probe(`https://127.0.0.1:${port}/healthz`)).status === 200);
  return proc;
}
