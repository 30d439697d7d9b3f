// The options `kubeairunway run` accepts, read from the command itself, so the manifests and the compose
// file are checked against the real CLI. Loaded by path: the command lives in cli/, owned elsewhere.

import { Command } from 'commander';

type Registration = (program: Command, context: { io: unknown }) => void;

/** Long option names of `run` (`--metrics-port`, `--no-metrics`, ...), or undefined while the command does not exist. */
export async function runOptions(): Promise<Set<string> | undefined> {
  const path = new URL('../../cli/commands/run.ts', import.meta.url).href;
  let mod: { runCommand?: Registration };
  try {
    mod = (await import(path)) as { runCommand?: Registration };
  } catch {
    return undefined;
  }
  if (!mod.runCommand) return undefined;
  const program = new Command();
  mod.runCommand(program, { io: {} });
  const run = program.commands.find((c) => c.name() === 'run');
  return new Set(run?.options.map((o) => o.long).filter((l): l is string => Boolean(l)));
}

/** The `--name` of each option in an argument list (`--a=b` and `--a b` alike). */
export function optionNames(args: readonly string[]): string[] {
  return args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]!);
}
