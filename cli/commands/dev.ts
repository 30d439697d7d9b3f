import { join } from 'node:path';
import { Command } from 'commander';
import { startStack, type Stack } from '../../devstack/stack.ts';
import { preferredPort } from '../../devstack/ports.ts';
import { stackCrdFiles } from '../../devstack/crd-files.ts';
import { repoRoot } from '../repo-root.ts';

export interface DevOptions {
  stateDir: string;
}

/** The embedded run: the whole local stack on loopback, until Ctrl-C. */
export async function runDev(opts: DevOptions): Promise<void> {
  const log = (line: string) => process.stdout.write(`[dev] ${line}\n`);
  const stack: Stack = await startStack({
    stateDir: opts.stateDir,
    crdFiles: stackCrdFiles(repoRoot()),
    temporalUi: true,
    temporalPersistent: true,
    temporalPort: await preferredPort(7233),
    temporalUiPort: await preferredPort(8233),
    log,
  });
  process.stdout.write(
    [
      '',
      'kubeairunway local stack is up.',
      `  kubeconfig:   ${stack.kubeconfigPath}`,
      `  try:          kubectl --kubeconfig ${stack.kubeconfigPath} get namespaces`,
      `  Temporal UI:  ${stack.temporalUiUrl}`,
      `  Temporal:     ${stack.temporalAddress} (namespace ${stack.temporalNamespace})`,
      `  logs:         ${stack.stateDir}/*.log`,
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log('stopping ...');
  await stack.stop();
  log('stopped');
}

export function devCommand(): Command {
  return new Command('dev')
    .description('run kubeairunway on an embedded local stack (etcd, kube-apiserver, kube-controller-manager, Temporal with its UI)')
    .option('--state-dir <dir>', 'where the stack keeps its data and logs', join(repoRoot(), '.state', 'dev'))
    .action(async (opts: { stateDir: string }) => runDev({ stateDir: opts.stateDir }));
}
