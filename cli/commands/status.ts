// `kubeairunway status [[KIND/]NAMESPACE/NAME]`: phase, provider, ready replicas, current step, last error
// and age of ModelDeployments (or, with a KIND or --kind, of another kind's objects, with that kind's
// columns), from the cluster and from each object's workflow.

import type { Command } from 'commander';
import { actionWithArgs } from '../operator/command.ts';
import { KIND_OPTION_HELP, withKubeOptions, withTemporalOptions } from '../operator/connection-options.ts';
import { outputOption } from '../operator/output.ts';
import type { StatusOptions } from '../operator/status.ts';
import type { CommandRegistration } from '../program.ts';

export const statusCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('status')
    .description('Show ModelDeployments (or FlameClusters with --kind fc): phase, provider, ready replicas, current step, last error, age.')
    .argument('[target]', 'KIND/NAMESPACE/NAME, NAMESPACE/NAME or NAME (with -n); every object of the kind when omitted')
    .option('-n, --namespace <name>', "namespace of NAME (default: the kubeconfig context's); limits the list when no target is given")
    .option('--kind <kind>', KIND_OPTION_HELP)
    .addOption(outputOption());
  withTemporalOptions(withKubeOptions(command)).action(
    actionWithArgs(async (args, options: StatusOptions) => {
      // Loaded on demand: the offline commands must not pay for the Kubernetes and Temporal clients.
      const { runStatus } = await import('../operator/status.ts');
      return runStatus(io, args, options);
    }),
  );
};
