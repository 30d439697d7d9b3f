import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A run killed with SIGKILL cannot stop its children. Each stack writes the ids of its processes and of
// its owning Node process into its state folder; the next start reaps stacks whose owner is gone.

const PID_FILE = 'stack.pids.json';

interface PidRecord {
  owner: number;
  pids: number[];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

export function recordPids(stateDir: string, pids: number[]): void {
  const record: PidRecord = { owner: process.pid, pids };
  writeFileSync(join(stateDir, PID_FILE), JSON.stringify(record));
}

/** Kills what an ownerless stack in `stateDir` left running; only processes whose command line names that folder. */
export function reapStack(stateDir: string): number {
  const file = join(stateDir, PID_FILE);
  if (!existsSync(file)) return 0;
  let record: PidRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as PidRecord;
  } catch {
    return 0;
  }
  if (record.owner !== process.pid && alive(record.owner)) return 0;
  let killed = 0;
  for (const pid of record.pids) {
    if (alive(pid) && commandLine(pid).includes(stateDir)) {
      process.kill(pid, 'SIGKILL');
      killed++;
    }
  }
  rmSync(file, { force: true });
  return killed;
}

/** Reaps every ownerless stack below `parent` and removes its folder (test stacks live in temporary folders). */
export function reapOrphanStacks(parent: string): void {
  if (!existsSync(parent)) return;
  for (const entry of readdirSync(parent)) {
    const dir = join(parent, entry);
    const file = join(dir, PID_FILE);
    if (!existsSync(file)) continue;
    try {
      const record = JSON.parse(readFileSync(file, 'utf8')) as PidRecord;
      if (alive(record.owner)) continue;
    } catch {
      // unreadable record: treat as ownerless
    }
    reapStack(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}
