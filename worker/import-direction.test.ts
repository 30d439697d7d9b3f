// The direction of imports between the product's folders, every layer at once (the workflow bundle's
// own, stricter allow list is workflows/workflow-imports.test.ts). Pure layers at the bottom, adapters
// above them, then the code that runs effects, then the composition: a folder may import its own files
// and the folders its row names, nothing else. Type-only imports are erased at run time and are not
// checked (a type may name anything); what is checked is code that would load. A new folder fails the
// coverage test until it has a row, so where it sits is decided, not drifted into.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, importsOf } from '../test/deploy/import-graph.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const PURE = ['api', 'contract', 'providers', 'render'];
const ADAPTERS = ['kube', 'broker', 'containerd'];

/** For each product folder, the folders whose code it may load. */
const ALLOWED: Record<string, readonly string[]> = {
  // Pure: the API (types, defaults, validation), what workflows and activities share, the providers'
  // and the newer kinds' rendering and status mapping. No I/O, so nothing above them.
  api: [],
  contract: ['api'],
  providers: ['api', 'contract'],
  render: ['api', 'contract', 'providers'],
  // Adapters: one client each, errors classified once (their retry classes are contract's).
  kube: ['api', 'contract'],
  broker: ['contract'],
  containerd: ['contract'],
  // What the CLI shows and reads, pure: manifests parsed from YAML, status rows and tables, the
  // one-sentence error meant for its user. Below kinds/, so each kind's module holds its own offline
  // checks and status rows, and the CLI's commands, above it, iterate the modules.
  present: ['api', 'contract'],
  // Logs, metrics and step outcomes; the names workflows publish (search attributes, task queues).
  observability: [...PURE, ...ADAPTERS, 'workflows'],
  // Deterministic: pure code only.
  workflows: ['api', 'contract'],
  // Effects.
  activities: [...PURE, ...ADAPTERS, 'observability'],
  watcher: [...PURE, ...ADAPTERS, 'observability', 'workflows'],
  webhook: [...PURE, ...ADAPTERS, 'observability'],
  // A kind's module gathers its pieces: workflow, activities, watch, webhook, its processes, and what the
  // CLI shows of it (its offline checks and renders, its status rows).
  kinds: [...PURE, ...ADAPTERS, 'present', 'observability', 'workflows', 'activities', 'watcher', 'webhook'],
  // The composition root of the running product: never the local stack's simulators, never the CLI.
  worker: [...PURE, ...ADAPTERS, 'observability', 'workflows', 'activities', 'watcher', 'webhook', 'kinds'],
  // The command: everything but effects of its own (renderers come from render/, never activities/);
  // `dev` starts the local stack.
  cli: [...PURE, ...ADAPTERS, 'present', 'observability', 'workflows', 'watcher', 'webhook', 'kinds', 'worker', 'devstack'],
  // The local stack and its simulators, and the tools it builds.
  devstack: [...PURE, ...ADAPTERS, 'observability', 'workflows', 'watcher', 'webhook', 'kinds', 'worker', 'tools'],
  tools: [],
  // Manifest generation (CRDs, roles) from the kinds' declarations.
  // tools: the helm client the chart's checks run (deploy/helm/helm-command.ts).
  deploy: [...PURE, ...ADAPTERS, 'kinds', 'tools'],
};

/** Folders that are not the product: they may import it, it may not import them. */
const NOT_PRODUCT = new Set(['test', 'bench', 'scripts', 'examples', 'docs', 'bin', 'dist', 'node_modules']);

/**
 * Files (or, ending in `/`, folders) allowed across a row's line, each with why. Every entry must still be used: the test
 * fails on a stale one, so the list only shrinks when a crossing is fixed.
 */
const EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (name === 'node_modules') return [];
    if (statSync(join(ROOT, rel)).isDirectory()) return sourceFiles(rel);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [rel] : [];
  });
}

function productFolders(): string[] {
  return readdirSync(ROOT).filter((name) => !name.startsWith('.') && !NOT_PRODUCT.has(name) && statSync(join(ROOT, name)).isDirectory() && sourceFiles(name).length > 0);
}

const folderOf = (file: string) => file.split('/')[0]!;

/** Every value import across a folder's line that no exception allows, as `from -> to`. */
function crossings(folders: readonly string[], allowed: Record<string, readonly string[]>, exceptions: typeof EXCEPTIONS, used = new Set<string>()): string[] {
  const found: string[] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(folder)) {
      for (const i of importsOf(ROOT, file)) {
        if (!i.relative || i.typeOnly) continue;
        const to = folderOf(i.target);
        if (to === folder || allowed[folder]?.includes(to)) continue;
        const exception = exceptions.find((e) => (e.from.endsWith('/') ? file.startsWith(e.from) : e.from === file) && e.to === i.target);
        if (exception) used.add(`${exception.from} -> ${exception.to}`);
        else found.push(`${file} -> ${i.target}`);
      }
    }
  }
  return found;
}

describe('imports between the product folders go one way', () => {
  it('places every product folder in the table', () => {
    expect(productFolders().filter((f) => !(f in ALLOWED))).toEqual([]);
  });

  it('finds no value import across a row but the listed exceptions, and no stale exception', () => {
    const used = new Set<string>();
    expect(crossings(Object.keys(ALLOWED), ALLOWED, EXCEPTIONS, used)).toEqual([]);
    expect(EXCEPTIONS.map((e) => `${e.from} -> ${e.to}`).filter((e) => !used.has(e))).toEqual([]);
  });

  it('has no cycle between folders in the table itself', () => {
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      (ALLOWED[from] ?? []).some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
    expect(Object.keys(ALLOWED).filter((f) => reaches(f, f))).toEqual([]);
  });

  it('never lets the product load the tests, the bench or the scripts', () => {
    const found = Object.keys(ALLOWED).flatMap((folder) =>
      sourceFiles(folder).flatMap((file) => importsOf(ROOT, file).filter((i) => i.relative && !i.typeOnly && NOT_PRODUCT.has(folderOf(i.target))).map((i) => `${file} -> ${i.target}`)),
    );
    expect(found).toEqual([]);
  });

  it('is a real check: with narrower rows, kube loading contract, the CLI loading kinds/ and the root loading activities/ all fail', () => {
    const strict = { ...ALLOWED, kube: [], cli: ['api'], worker: ['api'] };
    const found = crossings(['kube', 'cli', 'worker'], strict, []);
    expect(found.some((c) => c.startsWith('kube/') && c.includes(' -> contract/'))).toBe(true);
    expect(found.some((c) => c.startsWith('cli/') && c.includes(' -> kinds/'))).toBe(true);
    expect(found.some((c) => c.startsWith('worker/') && c.includes(' -> activities/'))).toBe(true);
  });
});

describe('the production root loads nothing of the local stack', () => {
  // `run` (the image's command) and the composition root it starts, dynamic imports included.
  for (const entry of ['worker/product.ts', 'cli/operator/run-controller.ts']) {
    it(`${entry} reaches no devstack/ file`, () => {
      expect([...importGraph(ROOT, [entry]).files].filter((f) => f.startsWith('devstack/'))).toEqual([]);
    });
  }
});
