// Workflow code is replayed and must stay deterministic. The lint (eslint.config.js) names what it must
// not import; this test is the allow list: everything the workflow bundle reaches for its values, file
// by file and package by package, must be on it. A new value import outside it fails here and makes
// the author decide (and say here) why that module is deterministic.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../test/deploy/import-graph.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files outside workflows/ whose values workflow code may use: pure data and pure functions. */
const ALLOWED_FILES = new Set([
  'api/constants.ts', // names of the API
  'api/messages.ts', // the seed's message texts
  'api/kybernate/constants.ts', // Kybernate's names and its node task queue's name
  'kube/resource-version.ts', // compares two resourceVersion strings
]);
const ALLOWED_PACKAGES = new Set(['@temporalio/workflow', '@temporalio/common']);

describe('the workflow bundle imports only deterministic code', () => {
  const graph = importGraph(ROOT, ['workflows/index.ts']);

  it('reaches no file outside workflows/ but the allowed pure ones', () => {
    const outside = [...graph.files].filter((f) => !f.startsWith('workflows/') && !ALLOWED_FILES.has(f));
    expect(outside).toEqual([]);
  });

  it('uses no package but the workflow SDK and its common types', () => {
    expect([...graph.packages].filter((p) => !ALLOWED_PACKAGES.has(p))).toEqual([]);
  });

  it('is a real check: the graph holds every kind workflow and the engine', () => {
    expect(graph.files).toContain('workflows/model-deployment.ts');
    expect(graph.files).toContain('workflows/flame/flame-cluster.ts');
    expect(graph.files).toContain('workflows/engine/reconcile-loop.ts');
  });
});
