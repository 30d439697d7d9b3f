// Glue for operator commands with positional arguments: commander passes the arguments first, then
// the options and the command; `action` from program.ts takes options only.

import type { Command } from 'commander';
import { action, type ExitCode } from '../program.ts';

export function actionWithArgs<Options>(run: (args: string[], options: Options) => Promise<ExitCode>): (...all: unknown[]) => Promise<void> {
  return async (...all) => {
    const command = all.at(-1) as Command;
    const options = all.at(-2) as Options;
    const args = all.slice(0, -2).flat().filter((a): a is string => typeof a === 'string');
    await action<Options>((o) => run(args, o))(options, command);
  };
}

/** Runs `fn` over `items` with at most `limit` calls in flight, keeping the order of the results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
