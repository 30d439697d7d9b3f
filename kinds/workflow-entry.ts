// The workflow bundle's entry (workflows/index.ts), written from the registered modules. The bundler
// needs a file, and the bundle may not import a registration (workflow code stays deterministic and
// free of the SDK clients a registration reaches), so the file is generated: each kind names its
// workflow and the module under workflows/ that exports it, and `npm run manifests` writes one export
// per kind. kinds/registry.test.ts fails while the committed file differs, so no kind's workflow can
// be left out of the bundle, nor one linger there without a kind.

import type { KindModule } from './kind-module.ts';

/** The entry, relative to the repository. */
export const WORKFLOW_ENTRY = 'workflows/index.ts';

const HEADER = [
  "// The workflow bundle's entry: every workflow type the core worker registers, one per kind.",
  "// Generated from the kinds' registrations (kinds/index.ts: `watched.workflowType`, `workflowModule`) by",
  '// `npm run manifests`: edit them there (kinds/workflow-entry.ts).',
  '// First: nothing the workflows below create captures a stack (see the module).',
  "import './stack-traces.ts';",
];

/** workflows/index.ts as the modules register their kinds, in module order. */
export function workflowEntry(modules: readonly KindModule[]): string {
  const exports = modules.flatMap((m) => m.kinds).map((k) => `export { ${k.watched.workflowType} } from './${k.workflowModule.replace(/^workflows\//, '')}';`);
  return `${[...HEADER, ...exports].join('\n')}\n`;
}
