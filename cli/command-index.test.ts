import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_INDEX, commandsFor } from './command-index.ts';
import type { CliIO } from './io.ts';

const io = {} as CliIO;

describe('command index', () => {
  it.each(COMMAND_INDEX.map((c) => [c.name, c] as const))('lists %s exactly as its module registers it', async (_name, entry) => {
    const program = new Command('kubeairunway');
    (await entry.load())(program, { io });
    const registered = program.commands.find((c) => c.name() === entry.name);
    expect(registered, `${entry.name} is not registered by its module`).toBeDefined();
    expect(entry.summary).toBe(registered!.description());
    expect(entry.term).toBe(new Help().subcommandTerm(registered!));
  });

  it('loads the named command only, also for `help NAME`, and none for the root help or a typo', () => {
    const names = (argv: string[]) => commandsFor(argv).map((c) => c.name);
    expect(names(['status', '-n', 'default', 'llama'])).toEqual(['status']);
    expect(names(['help', 'retry'])).toEqual(['retry']);
    expect(names(['--help'])).toEqual([]);
    expect(names([])).toEqual([]);
    expect(names(['stauts'])).toEqual([]);
  });
});
