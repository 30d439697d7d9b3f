// `kubeairunway status [NAMESPACE/NAME]`: phase, provider, ready replicas, current step, last error and
// age of ModelDeployments, from the cluster and from each deployment's workflow.

import type { Command } from 'commander';
import { actionWithArgs } from '../operator/command.ts';
import { withKubeOptions, withTemporalOptions } from '../operator/connection-options.ts';
import { outputOption } from '../operator/output.ts';
import type { StatusOptions } from '../operator/status.ts';
import type { CommandRegistration } from '../program.ts';

export const statusCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('status')
    .description('Show ModelDeployments: phase, provider, ready replicas, current step, last error, age.')
    .argument('[target]', 'NAMESPACE/NAME (or NAME with -n); every deployment when omitted')
    .option('-n, --namespace <name>', "namespace of NAME (default: the kubeconfig context's); limits the list when no target is given")
    .addOption(outputOption());
  withTemporalOptions(withKubeOptions(command)).action(
    actionWithArgs(async (args, options: StatusOptions) => {
      // Loaded on demand: the offline commands must not pay for the Kubernetes and Temporal clients.
      const { runStatus } = await import('../operator/status.ts');
      return runStatus(io, args, options);
    }),
  );
};
