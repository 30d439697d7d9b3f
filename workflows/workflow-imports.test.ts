// Workflow code is replayed and must stay deterministic. The lint (eslint.config.js) names what it must
// not import; this test is the allow list: everything the workflow bundle reaches for its values, file
// by file and package by package, must be on it. A new value import outside it fails here and makes
// the author decide (and say here) why that module is deterministic.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../test/deploy/import-graph.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files outside workflows/ whose values workflow code may use: pure data and pure functions. */
const ALLOWED_FILES = new Set([
  'api/constants.ts', // names of the API
  'api/messages.ts', // the seed's message texts
  'api/common/kind-names.ts', // builds a kind's names from its declaration (no imports)
  'api/kybernate/constants.ts', // Kybernate's names and its node task queue's name
  'contract/resource-version.ts', // compares two resourceVersion strings
  'contract/failure-types.ts', // the failure types and their retry classes (a constant table)
]);
const ALLOWED_PACKAGES = new Set(['@temporalio/workflow', '@temporalio/common']);

/** Every file and package the workflow bundle reaches from its entry. */
const graph = importGraph(ROOT, ['workflows/index.ts']);

describe('the workflow bundle imports only deterministic code', () => {
  it('reaches no file outside workflows/ but the allowed pure ones', () => {
    const outside = [...graph.files].filter((f) => !f.startsWith('workflows/') && !ALLOWED_FILES.has(f));
    expect(outside).toEqual([]);
  });

  it('uses no package but the workflow SDK and its common types', () => {
    expect([...graph.packages].filter((p) => !ALLOWED_PACKAGES.has(p))).toEqual([]);
  });

  it('is a real check: the graph holds every kind workflow and the engine', () => {
    expect(graph.files).toContain('workflows/model-deployment/model-deployment.ts');
    expect(graph.files).toContain('workflows/flame/flame-cluster.ts');
    expect(graph.files).toContain('workflows/engine/reconcile-loop.ts');
  });
});

/**
 * Top-level declarations that could carry state from one workflow to another. The whole bundle is
 * preloaded (worker/workflow-code.ts `PRELOADED_MODULES`): every module is evaluated once per V8 context
 * and shared by all the workflows a worker runs, so a module-level `let` or collection would leak
 * between them. Constants (strings, numbers, frozen-by-the-SDK objects and arrays of them) are fine.
 */
function moduleLevelState(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const decl of statement.declarationList.declarations) {
      const name = decl.name.getText(sf);
      const init = decl.initializer;
      const collection = init && ts.isNewExpression(init) && /^(Map|Set|WeakMap|WeakSet|Array)$/.test(init.expression.getText(sf));
      const empty = init && ((ts.isArrayLiteralExpression(init) && init.elements.length === 0) || (ts.isObjectLiteralExpression(init) && init.properties.length === 0));
      if (!constant) found.push(`${file}: ${name} (let/var)`);
      else if (collection || empty) found.push(`${file}: ${name} (a collection)`);
    }
  }
  return found;
}

describe('the workflow bundle keeps no state at module level (it is shared by every workflow)', () => {
  it('declares no module-level let, var or collection in any file it reaches', () => {
    const found = [...graph.files].flatMap((f) => moduleLevelState(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('is a real check: it finds the kinds of state that would leak', () => {
    const sample = 'export let count = 0;\nconst cache = new Map();\nconst seen = [];\nconst NAMES = [\'a\'];\nconst LIMIT = 3;';
    expect(moduleLevelState('sample.ts', sample)).toEqual(['sample.ts: count (let/var)', 'sample.ts: cache (a collection)', 'sample.ts: seen (a collection)']);
  });
});
