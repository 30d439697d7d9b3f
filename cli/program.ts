// The command-line program: a commander root that each command module adds itself to. `runCli` never
// exits the process; it returns the exit code, so tests run commands in-process.

import { Command, CommanderError, Help } from 'commander';
import { CliError } from '../present/errors.ts';
import type { CliIO } from './io.ts';

export interface CommandContext {
  io: CliIO;
}

/** A command module: adds one subcommand (options, help, action) to the program. */
export type CommandRegistration = (program: Command, context: CommandContext) => void;

/** What a command's action returns: the process exit code. */
export type ExitCode = number;

const exitCodes = new WeakMap<Command, ExitCode>();

/**
 * Wraps a command action so its returned exit code reaches `runCli`. Commander passes the parsed options
 * and then the command itself as the last argument.
 */
export function action<Options>(run: (options: Options) => Promise<ExitCode>): (options: Options, command: Command) => Promise<void> {
  return async (options, command) => {
    const code = await run(options);
    let root: Command = command;
    while (root.parent) root = root.parent;
    exitCodes.set(root, code);
  };
}

/** A command only listed, not loaded: the root's help shows it, and a typo's suggestion can name it. */
export interface ListedCommand {
  name: string;
  /** As the root's help shows it: name, `[options]`, arguments. */
  term: string;
  summary: string;
}

/**
 * Runs one command line. `commands` are registered in full; `listed` ones (see command-index.ts) only
 * by name and summary, so a call pays for the modules of the command it runs and no other.
 */
export async function runCli(argv: readonly string[], io: CliIO, commands: readonly (CommandRegistration | ListedCommand)[]): Promise<ExitCode> {
  const terms = new Map<Command, string>();
  const program = new Command('kubeairunway')
    .description('Deploy LLM inference on Kubernetes with one ModelDeployment resource.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showSuggestionAfterError()
    .helpCommand(true);
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? new Help().subcommandTerm(cmd) });
  for (const entry of commands) {
    if (typeof entry === 'function') entry(program, { io });
    else terms.set(program.command(entry.name).description(entry.summary), entry.term);
  }

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // Commander has already printed its own message (unknown option, missing argument, help).
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CliError) {
      io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  return exitCodes.get(program) ?? 0;
}
