// The files and packages a program reaches through its imports, read from the sources (relative
// specifiers with explicit extensions, as this repository writes them). What the container image must
// hold; type-only imports are erased at run time and do not count.

import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

const IMPORT = /(?:^|[;\s])(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

export interface ImportGraph {
  /** Repository-relative paths of every source file reached. */
  files: Set<string>;
  /** npm packages imported for their values. */
  packages: Set<string>;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export function importGraph(root: string, entries: readonly string[]): ImportGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((e) => resolve(root, e));
  for (let file = queue.pop(); file; file = queue.pop()) {
    const rel = relative(root, file);
    if (files.has(rel)) continue;
    if (!existsSync(file)) throw new Error(`${rel} is imported but does not exist`);
    files.add(rel);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const typeOnly = Boolean(m[2]);
      const specifier = m[3] ?? m[4]!;
      if (typeOnly) continue;
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (!BUILTINS.has(specifier)) packages.add(packageName(specifier));
    }
  }
  return { files, packages };
}
