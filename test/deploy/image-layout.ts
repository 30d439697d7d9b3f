// The container image's /app, laid out in a temporary folder without Docker: what the Dockerfile's
// runtime stage copies (package.json, bin/, the build's dist/) and the production dependencies only
// (`npm ci --omit=dev`), linked from this checkout's node_modules. No sources and no tsx: whatever runs
// here runs as it would in the image.

import { copyFileSync, cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { buildProduct } from '../../scripts/build.ts';

/** The top-level node_modules entries npm installs with --omit=dev (nested ones live inside them). */
export function productionPackages(root: string): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const modules = join(root, 'node_modules') + sep;
  const names = out
    .split('\n')
    .filter((p) => p.startsWith(modules))
    .map((p) => relative(modules, p).split(sep))
    .map((parts) => (parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!));
  return [...new Set(names)].sort();
}

/** Builds the product into a fresh folder laid out as the image's /app; returns that folder. */
export async function imageLayout(root: string): Promise<string> {
  const app = mkdtempSync(join(tmpdir(), 'kubeairunway-image-'));
  await buildProduct(join(app, 'dist'));
  copyFileSync(join(root, 'package.json'), join(app, 'package.json'));
  cpSync(join(root, 'bin'), join(app, 'bin'), { recursive: true });
  for (const name of productionPackages(root)) {
    mkdirSync(dirname(join(app, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(app, 'node_modules', name), 'dir');
  }
  return app;
}
