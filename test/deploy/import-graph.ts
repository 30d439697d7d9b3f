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

/** One import of a file: a repository-relative path (relative specifiers) or a package name, and whether it is type-only. */
export interface Import {
  target: string;
  relative: boolean;
  typeOnly: boolean;
}

/** The imports one source file (repository-relative) writes, static and dynamic; Node built-ins left out. */
export function importsOf(root: string, file: string): Import[] {
  const path = resolve(root, file);
  return [...readFileSync(path, 'utf8').matchAll(IMPORT)].flatMap((m): Import[] => {
    const specifier = m[3] ?? m[4]!;
    const typeOnly = Boolean(m[2]);
    if (specifier.startsWith('.')) return [{ target: relative(root, resolve(dirname(path), specifier)), relative: true, typeOnly }];
    return BUILTINS.has(specifier) ? [] : [{ target: packageName(specifier), relative: false, typeOnly }];
  });
}

export function importGraph(root: string, entries: readonly string[]): ImportGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  for (let rel = queue.pop(); rel !== undefined; rel = queue.pop()) {
    if (files.has(rel)) continue;
    if (!existsSync(resolve(root, rel))) throw new Error(`${rel} is imported but does not exist`);
    files.add(rel);
    for (const i of importsOf(root, rel)) {
      if (i.typeOnly) continue;
      if (i.relative) queue.push(i.target);
      else packages.add(i.target);
    }
  }
  return { files, packages };
}
