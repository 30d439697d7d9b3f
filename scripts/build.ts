// `npm run build`: the production build the image runs. tsc compiles the runtime folders to dist/
// (tsconfig.build.json; relative `.ts` imports become `.js`), and the core worker's workflows are bundled
// once, here, into dist/workflow-bundle.js, which the compiled worker loads instead of running webpack at
// every start (worker/workflow-code.ts). Runs from a checkout with dev dependencies (tsx, typescript).
//
//   npm run build [-- --out-dir <dir>]

import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { productRoot } from '../worker/product-root.ts';
import { BUNDLE_OPTIONS, WORKFLOW_BUNDLE_FILE } from '../worker/workflow-code.ts';

export interface BuildResult {
  outDir: string;
  bundlePath: string;
}

/** Compiles the runtime into `outDir` (emptied first) and writes the prebuilt workflow bundle there. */
export async function buildProduct(outDir = join(productRoot(), 'dist')): Promise<BuildResult> {
  const root = productRoot();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // Both at once: tsc runs in its own process while webpack bundles here (two cores, about half the time).
  const compile = promisify(execFile)(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir], { cwd: root }).catch(
    (err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`tsc failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    },
  );
  // From the sources, as the worker bundles them at start; only webpack's warnings and errors are shown.
  const bundle = bundleWorkflowCode({ ...BUNDLE_OPTIONS, logger: new DefaultLogger('WARN') });
  const [, { code }] = await Promise.all([compile, bundle]);
  const bundlePath = join(outDir, WORKFLOW_BUNDLE_FILE);
  writeFileSync(bundlePath, code);
  // tsc copies no .proto files; the containerd client loads its own from beside its compiled code.
  cpSync(join(root, 'containerd', 'proto'), join(outDir, 'containerd', 'proto'), { recursive: true });
  return { outDir, bundlePath };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--out-dir');
  const outDir = i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]!) : undefined;
  const t0 = Date.now();
  const result = await buildProduct(outDir);
  process.stdout.write(`built ${result.outDir} and ${result.bundlePath} in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
}
