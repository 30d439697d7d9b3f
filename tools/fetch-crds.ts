// Copies the upstream CRD files that ship inside the KubeRay and KEDA Go modules into the tools cache,
// so the local stack installs the real schemas (their versions pinned with the operators' own).
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cachedCrdBundleDir } from './resolve.ts';
import { downloadModule } from './run.ts';
import type { CrdBundleSpec } from './versions.ts';

/** Downloads the module (checked against the Go checksum database by `go mod download`) and copies the files. */
export async function fetchCrdBundle(spec: CrdBundleSpec, work: string, logFile: string): Promise<string[]> {
  mkdirSync(work, { recursive: true });
  const info = await downloadModule(spec.module, spec.version, work, logFile);
  const dir = cachedCrdBundleDir(spec);
  // Written beside and renamed into place, so an interrupted copy never looks complete.
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  for (const file of spec.files) {
    const from = join(info.Dir, file);
    if (!existsSync(from)) throw new Error(`${spec.module}@v${spec.version} has no ${file}`);
    const to = join(partial, file.split('/').pop()!);
    copyFileSync(from, to);
    // The module cache's files are read-only; the copies need not be.
    chmodSync(to, 0o644);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return spec.files.map((f) => join(dir, f.split('/').pop()!));
}
