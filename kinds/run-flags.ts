// The modules' flags of `kubeairunway run` and the parts they start, gathered from the registrations
// (kinds/index.ts): `run` offers the flags and checks them before anything starts, the composition root
// (worker/product.ts) starts the parts they configure. Pure: nothing is loaded or started here.

import { KIND_MODULES } from './index.ts';
import type { KindModule, RunFlag, RunFlagValues, StartPart } from './kind-module.ts';

/** A flag's value's name, as the command line's parser gives it: `--activator-port <port>` → `activatorPort`. */
export function flagName(flag: RunFlag): string {
  const long = /^--([a-z][a-z0-9-]*)/.exec(flag.flag)?.[1];
  if (!long || long.startsWith('no-')) throw new Error(`a module's flag must be a long flag without --no-: ${flag.flag}`);
  return long.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Every module's flags, in module order. */
export function runFlags(modules: readonly KindModule[] = KIND_MODULES): RunFlag[] {
  return modules.flatMap((m) => m.flags ?? []);
}

/** A part its flags ask for, ready to start. */
export interface ConfiguredPart {
  name: string;
  start: StartPart;
}

/** The parts the flags ask for, in module order. Throws, naming the flag, on a value a part cannot use. */
export function configuredParts(flags: RunFlagValues, modules: readonly KindModule[] = KIND_MODULES): ConfiguredPart[] {
  return modules.flatMap((m) =>
    (m.parts ?? []).flatMap((part) => {
      const start = part.configure(flags);
      return start ? [{ name: part.name, start }] : [];
    }),
  );
}

/** The switches that name a part among the parts `run` starts (`--node`): value name, spelling, and whether the flags give it. */
export function partSwitches(flags: RunFlagValues, modules: readonly KindModule[] = KIND_MODULES): { name: string; flag: string; given: boolean }[] {
  return modules.flatMap((m) =>
    (m.parts ?? []).flatMap((part) => {
      const declared = (m.flags ?? []).find((f) => flagName(f) === part.namedBy);
      if (!declared || part.namedBy === undefined) return [];
      const value = flags[part.namedBy];
      return [{ name: part.namedBy, flag: declared.flag.split(' ')[0]!, given: value !== undefined && value !== false }];
    }),
  );
}

/** Whether the flags name a part of its own (`--node`): the controller then runs for it alone. */
export function namesAPart(flags: RunFlagValues, modules: readonly KindModule[] = KIND_MODULES): boolean {
  return partSwitches(flags, modules).some((s) => s.given);
}
