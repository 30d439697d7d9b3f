// `kubeairunway retry [KIND/]NAMESPACE/NAME`: re-runs the object's failed or waiting step now and says what
// it retried and how the new attempt ended (exit code 1 when it failed again).

import type { Command } from 'commander';
import { actionWithArgs } from '../operator/command.ts';
import { withKubeOptions, withTargetArgument, withTemporalOptions } from '../operator/connection-options.ts';
import { outputOption } from '../operator/output.ts';
import type { RetryOptions } from '../operator/retry.ts';
import type { CommandRegistration } from '../program.ts';

export const retryCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('retry')
    .description('Retry the failed or waiting reconciliation step of a ModelDeployment or FlameCluster now, and report how the new attempt ended.')
    .option('--timeout <duration>', 'how long to wait for the new attempt to end', '2m')
    .addOption(outputOption());
  withTemporalOptions(withKubeOptions(withTargetArgument(command))).action(
    actionWithArgs(async (args, options: RetryOptions) => {
      const { runRetry } = await import('../operator/retry.ts');
      return runRetry(io, args, options);
    }),
  );
};
