// Runs the kubeairunway operator commands in-process against the shared local stack.

import { historyCommand } from '../../cli/commands/history.ts';
import { controllerCommand, providerCommand } from '../../cli/commands/install.ts';
import { pauseCommand, resumeCommand } from '../../cli/commands/pause.ts';
import { retryCommand } from '../../cli/commands/retry.ts';
import { statusCommand } from '../../cli/commands/status.ts';
import { runCommands, type CliRun } from '../../cli/testing/run.ts';
import { stackInfo } from '../support/env.ts';

export type CliResult = CliRun;

// pause and resume too: a FlameCluster's pause is acknowledged by its workflow.
const TEMPORAL_COMMANDS = new Set(['status', 'history', 'retry', 'pause', 'resume']);

/** `kubeairunway ARGV` with the stack's kubeconfig and Temporal address. */
export async function kubeairunway(argv: string[]): Promise<CliResult> {
  const info = stackInfo();
  const connection = ['--kubeconfig', info.kubeconfigPath];
  if (TEMPORAL_COMMANDS.has(argv[0]!) && !argv.includes('--temporal-address')) connection.push('--temporal-address', info.temporalAddress, '--temporal-namespace', info.temporalNamespace);
  return runCommands([...argv, ...connection], [statusCommand, historyCommand, retryCommand, pauseCommand, resumeCommand, controllerCommand, providerCommand]);
}

/** The JSON a command printed with -o json; fails with its stderr when it printed none. */
export function json<T>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`expected JSON on stdout (exit ${result.code}); stderr: ${result.stderr}; stdout: ${result.stdout}`);
  }
}
