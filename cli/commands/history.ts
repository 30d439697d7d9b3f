// `kubeairunway history [KIND/]NAMESPACE/NAME`: the object's timeline from its workflow history — every
// reconciliation step with its time, duration, outcome and error, across continue-as-new runs — and
// the Temporal UI page of the workflow.

import { Option, type Command } from 'commander';
import { actionWithArgs } from '../operator/command.ts';
import { DEFAULT_TEMPORAL_UI, withKubeOptions, withTargetArgument, withTemporalOptions } from '../operator/connection-options.ts';
import type { HistoryOptions } from '../operator/history.ts';
import { outputOption } from '../operator/output.ts';
import type { CommandRegistration } from '../program.ts';

export const historyCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('history')
    .description("Show a ModelDeployment's (or FlameCluster's) reconciliation history from Temporal: each step with its time, duration, outcome and error.")
    .option('--runs <count>', 'how many workflow runs to read, newest first (continue-as-new starts a new run)', '10')
    .option('--steps', 'only reconciliation steps (no signals, timers, run markers)')
    .option('--failures', 'only entries with an error')
    .addOption(new Option('--temporal-ui <url>', 'Temporal Web UI base URL, for the links').env('TEMPORAL_UI').default(DEFAULT_TEMPORAL_UI))
    .addOption(outputOption());
  withTemporalOptions(withKubeOptions(withTargetArgument(command))).action(
    actionWithArgs(async (args, options: HistoryOptions) => {
      const { runHistory } = await import('../operator/history.ts');
      return runHistory(io, args, options);
    }),
  );
};
