import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { action, type CommandRegistration } from '../program.ts';
import { repoRoot } from '../repo-root.ts';

export const devCommand: CommandRegistration = (program) => {
  program
    .command('dev')
    .description('run kubeairunway on an embedded local stack (etcd, kube-apiserver, kube-controller-manager, Temporal with its UI)')
    .option('--state-dir <dir>', 'where the stack keeps its data and logs', join(repoRoot(), '.state', 'dev'))
    // Fixed so the README's commands and the UI link work; a taken port fails the start naming its holder.
    .option('--temporal-port <port>', 'Temporal server port', toPort, 7233)
    .option('--temporal-ui-port <port>', 'Temporal UI port', toPort, 8233)
    .option('--metrics-port <port>', 'metrics and /healthz port', toPort, 9090)
    .option('--activator-port <port>', "serve the KybernateWorkloads' activator (wake on request) on 127.0.0.1 at this port; none without it", toPort)
    .option('--real-operators', "run the real KubeRay and KEDA operators (built by `npm run tools`) instead of the simulated KubeRay operator; RayServices then stop short of Running (no Ray runs here)")
    .option('--kybernate-node', "run the Kybernate node container (Debian trixie's containerd and CRIU 4 on a private Docker engine; root; images built once) and the node worker on its containerd, as node 'dev-node'")
    .option('--cluster', 'a real one-node cluster instead (scheduler, a kubelet node with a pod network, kube-proxy, CoreDNS in a network namespace of its own; root) with kubeairunway installed in it from deploy/install.yaml, as pods of the image built from this checkout')
    .action(
      action(async (opts: { stateDir: string; temporalPort: number; temporalUiPort: number; metricsPort: number; activatorPort?: number; realOperators?: boolean; kybernateNode?: boolean; cluster?: boolean }) => {
        // Loaded on demand: the offline commands must not pay for the stack's modules.
        const { runDev } = await import('../dev/run-dev.ts');
        await runDev(opts);
        return 0;
      }),
    );
};

function toPort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new InvalidArgumentError(`not a TCP port: ${value}`);
  return port;
}
