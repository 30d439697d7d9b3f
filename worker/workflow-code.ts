// Where the core worker's workflow code comes from. Compiled (dist/), `npm run build` has written a
// prebuilt bundle next to the code, and loading it spares webpack at every worker start. Run from the
// TypeScript sources (a checkout, the tests), the workflows are bundled at start, so an edited workflow
// is never shadowed by a stale bundle.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The prebuilt bundle's file name, in the build's output folder (dist/). */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

// This module is itself either worker/workflow-code.ts or dist/worker/workflow-code.js.
const compiled = import.meta.url.endsWith('.js');

/** The workflows' entry point beside this module, sources or compiled. */
export const WORKFLOWS_PATH = fileURLToPath(new URL(`../workflows/index.${compiled ? 'js' : 'ts'}`, import.meta.url));

const PREBUILT_BUNDLE_PATH = fileURLToPath(new URL(`../${WORKFLOW_BUNDLE_FILE}`, import.meta.url));

/**
 * Modules evaluated once per V8 context and shared by every workflow the worker runs, instead of once
 * per workflow (the SDK's `preloadModules`): all of the workflow code. It keeps no state at module level
 * (workflows/workflow-imports.test.ts checks), so sharing it is safe, and it roughly halves the heap a
 * cached workflow keeps (measured with 1,000 cached: about 130 KiB each without, 73 KiB with).
 */
export const PRELOADED_MODULES = [WORKFLOWS_PATH];

/** `bundleWorkflowCode`'s options: one shape of bundle for production, the tests and the replay guard. */
export const BUNDLE_OPTIONS = { workflowsPath: WORKFLOWS_PATH, preloadModules: PRELOADED_MODULES };

/** The Worker.create option naming the workflow code: the prebuilt bundle when compiled and present, else the sources, bundled at start. */
export function workflowCode(): { workflowBundle: { codePath: string } } | { workflowsPath: string; bundlerOptions: { preloadModules: string[] } } {
  if (compiled && existsSync(PREBUILT_BUNDLE_PATH)) return { workflowBundle: { codePath: PREBUILT_BUNDLE_PATH } };
  return { workflowsPath: WORKFLOWS_PATH, bundlerOptions: { preloadModules: PRELOADED_MODULES } };
}
