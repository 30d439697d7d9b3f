import { join } from 'node:path';
import { action, type CommandRegistration } from '../program.ts';
import { repoRoot } from '../repo-root.ts';

export const devCommand: CommandRegistration = (program) => {
  program
    .command('dev')
    .description('run kubeairunway on an embedded local stack (etcd, kube-apiserver, kube-controller-manager, Temporal with its UI)')
    .option('--state-dir <dir>', 'where the stack keeps its data and logs', join(repoRoot(), '.state', 'dev'))
    .action(
      action(async (opts: { stateDir: string }) => {
        // Loaded on demand: the offline commands must not pay for the stack's modules.
        const { runDev } = await import('../dev/run-dev.ts');
        await runDev({ stateDir: opts.stateDir });
        return 0;
      }),
    );
};
