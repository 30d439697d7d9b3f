import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pidExists } from './process.ts';

// One build of an image at a time across processes. `npm test` runs test files side by side that build the
// same images on one engine (the product's, the Kybernate node's, the Debian base): the second waits for the
// first and then finds the image made, instead of building it again beside it (on a cold machine, minutes
// of both cores). The lock is a file holding its owner's process id; one whose owner is gone is taken over.

export interface BuildLockOptions {
  /** Said once when the lock is held by another process. */
  log?: (line: string) => void;
  /** How long to wait for the other build; then the wait fails naming it. */
  timeoutMs?: number;
  pollMs?: number;
}

/** A lock file just made holds no id yet for a moment: only one that stays empty this long is a leftover. */
const EMPTY_LOCK_GRACE_MS = 10_000;

function lockPath(dir: string, name: string): string {
  return join(dir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
}

/** The process holding `path`, or undefined when the lock is free to take (absent, or left by a process now gone). */
function holder(path: string): number | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (text === '') return Date.now() - statSync(path).mtimeMs < EMPTY_LOCK_GRACE_MS ? -1 : undefined;
    const pid = Number(text);
    return Number.isInteger(pid) && pid > 0 && pidExists(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tryTake(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Runs `build` holding the lock named `name` in `dir`, waiting (bounded) while another process holds it. */
export async function withBuildLock<T>(dir: string, name: string, build: () => Promise<T>, opts: BuildLockOptions = {}): Promise<T> {
  mkdirSync(dir, { recursive: true });
  const path = lockPath(dir, name);
  const deadline = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
  let said = false;
  while (!tryTake(path)) {
    const owner = holder(path);
    if (owner === undefined) {
      // Its owner is gone (killed mid-build): the lock is stale. Two waiters removing it at once could both
      // build, as without a lock: harmless for images, which the second build finds in the layer cache.
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for process ${owner}'s build of ${name} (lock ${path})`);
    if (!said) opts.log?.(`image ${name}: waiting for the build in process ${owner} (another test file builds it)`);
    said = true;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
  }
  try {
    return await build();
  } finally {
    rmSync(path, { force: true });
  }
}
