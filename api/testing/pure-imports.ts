// The modules a file reaches through its imports (relative ones followed, packages listed by name), for
// tests that hold a validator pure: no I/O, no clock, no random numbers, in any file it runs.

import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

export interface Reached {
  /** Repository files, relative to `root`, with their text. */
  files: Map<string, string>;
  /** Package imports (`@scope/name`, `node:fs`). */
  packages: Set<string>;
}

export function reachedFrom(entry: string, root: string): Reached {
  const files = new Map<string, string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    const key = relative(root, file);
    if (files.has(key)) return;
    const text = readFileSync(file, 'utf8');
    files.set(key, text);
    // `import type` is erased at run time: it brings no code along.
    for (const [, spec] of text.matchAll(/^import (?!type )[^;]*?from '([^']+)'/gms)) {
      if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!));
      else packages.add(spec!);
    }
    for (const [, spec] of text.matchAll(/^export [^;]*?from '([^']+)'/gms)) if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!));
  };
  visit(entry);
  return { files, packages };
}
