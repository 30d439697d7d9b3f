// One stack per state folder. A second `npm run dev` on a folder a running stack uses would move its
// ports, start a second etcd on the same data and, on its way out, delete the running stack's
// stack.pids.json (after which nothing reaps that stack's servers). The first run holds `dev.lock`
// (its pid) for its whole life; a second is refused before it touches anything, naming the first.
// A lock whose process is gone (SIGKILL, a crash) is taken over.
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidExists } from '../../devstack/process.ts';
import { CliError } from '../../present/errors.ts';

export const LOCK_FILE = 'dev.lock';

export interface StateLock {
  /** Removes the lock if it is still this process's. */
  release(): void;
}

function holderOf(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates `lock` holding `pid`, atomically: a hard link fails if the name exists, so one of two racing starts wins. */
function create(lock: string, pid: number): boolean {
  const draft = `${lock}.${pid}`;
  writeFileSync(draft, `${pid}\n`);
  try {
    linkSync(draft, lock);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(draft, { force: true });
  }
}

export function lockStateFolder(stateDir: string, pid = process.pid): StateLock {
  mkdirSync(stateDir, { recursive: true });
  const lock = join(stateDir, LOCK_FILE);
  for (let attempt = 0; !create(lock, pid); attempt++) {
    const holder = holderOf(lock);
    if (holder !== undefined && holder !== pid && pidExists(holder)) {
      throw new CliError(
        `A local stack already runs on ${stateDir} (npm run dev, pid ${holder}). Stop it (Ctrl-C in its terminal, or kill ${holder}), or start another with --state-dir <another folder>.`,
      );
    }
    // Left by a process that is gone (or unreadable, half written): taken over, once.
    if (attempt > 0) throw new CliError(`Cannot take ${lock}: another start is taking it at the same moment.`);
    rmSync(lock, { force: true });
  }
  return {
    release() {
      if (holderOf(lock) === pid) unlinkSync(lock);
    },
  };
}
