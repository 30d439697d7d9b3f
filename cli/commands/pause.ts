// `kubeairunway pause|resume [KIND/]NAMESPACE/NAME`: the pause annotation `kubeairunway.ai/reconcile-paused`.
// Temporal options too: a kind without a pause condition (FlameCluster) is acknowledged by its workflow.

import type { Command } from 'commander';
import { actionWithArgs } from '../operator/command.ts';
import { withKubeOptions, withTargetArgument, withTemporalOptions } from '../operator/connection-options.ts';
import { outputOption } from '../operator/output.ts';
import type { PauseOptions } from '../operator/pause.ts';
import type { CommandRegistration } from '../program.ts';

function register(program: Command, io: Parameters<CommandRegistration>[1]['io'], pause: boolean): void {
  const command = program
    .command(pause ? 'pause' : 'resume')
    .description(
      pause
        ? 'Pause reconciliation of a ModelDeployment or FlameCluster (sets the annotation kubeairunway.ai/reconcile-paused: "true").'
        : 'Resume reconciliation of a paused ModelDeployment or FlameCluster (removes the annotation kubeairunway.ai/reconcile-paused).',
    )
    .option('--no-wait', 'return once the annotation is written, without waiting for the controller to acknowledge it')
    .option('--timeout <duration>', 'how long to wait for the controller', '30s')
    .addOption(outputOption());
  withTemporalOptions(withKubeOptions(withTargetArgument(command))).action(
    actionWithArgs(async (args, options: PauseOptions) => {
      const { runPause } = await import('../operator/pause.ts');
      return runPause(io, args, options, pause);
    }),
  );
}

export const pauseCommand: CommandRegistration = (program, { io }) => register(program, io, true);
export const resumeCommand: CommandRegistration = (program, { io }) => register(program, io, false);
