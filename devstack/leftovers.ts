import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOrphanGuard, type OrphanGuard } from './orphan-guard.ts';

// A run killed with SIGKILL cannot stop its children. Each stack writes the ids of its processes and of
// its owning Node process into its state folder; the next start reaps stacks whose owner is gone. Sooner
// than that, a guard process per stack (orphan-guard.ts) stops them as soon as their owner dies.

const PID_FILE = 'stack.pids.json';

interface PidRecord {
  owner: number;
  pids: number[];
  /**
   * Commands that remove what a stack made that is not a process (its network namespace, its node's
   * container): run, last first, once its processes are stopped by whoever reaps an ownerless stack.
   */
  undo?: string[][];
}

const zombie = (statFile: string): boolean => {
  try {
    return /^\d+ \(.*\) [ZX]/s.test(readFileSync(statFile, 'utf8'));
  } catch {
    return true;
  }
};

/**
 * Whether `pid` may still hold ports. A killed process whose parent has not collected it yet holds none
 * (a zombie): gone. But a killed multi-threaded server (etcd, kube-apiserver and Temporal are Go) shows
 * its main thread as a zombie while its other threads still exit, and until the last one has, its
 * sockets stay open, listening: it counts as alive until every thread is a zombie. (Counting it gone
 * earlier moved the API server's port after a reap, blaming "a process of uid 0 this user cannot inspect".)
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, as another user's process.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return !zombie(`/proc/${pid}/stat`);
  }
  return threads.some((tid) => !zombie(`/proc/${pid}/task/${tid}/stat`));
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** The guard of each stack this process owns, started with its first pid record, released with its pid file. */
const guards = new Map<string, OrphanGuard>();

/** What this process has recorded for each of its stacks, rewritten whole on every change. */
const records = new Map<string, PidRecord>();

function writeRecord(stateDir: string, change: Partial<PidRecord>): void {
  const record: PidRecord = { owner: process.pid, pids: [], ...records.get(stateDir), ...change };
  records.set(stateDir, record);
  writeFileSync(join(stateDir, PID_FILE), JSON.stringify(record));
  if (!guards.has(stateDir)) guards.set(stateDir, startOrphanGuard(stateDir, PID_FILE));
}

export function recordPids(stateDir: string, pids: number[]): void {
  writeRecord(stateDir, { pids });
}

/** Records a command that removes something the stack made (`ip netns del …`), for a reaper to run should its owner die. */
export function recordUndo(stateDir: string, command: string[]): void {
  writeRecord(stateDir, { undo: [...(records.get(stateDir)?.undo ?? []), command] });
}

export function removePidFile(stateDir: string): void {
  rmSync(join(stateDir, PID_FILE), { force: true });
  records.delete(stateDir);
  guards.get(stateDir)?.release();
  guards.delete(stateDir);
}

/** On this process's exit without the stack's stop (its servers are killed beside it): its undo commands run, its record goes. */
export function abandonStack(stateDir: string): void {
  const record = records.get(stateDir);
  if (record) runUndo(record);
  removePidFile(stateDir);
}

/** Runs a dead stack's undo commands, last first; each bounded, a failure does not stop the others. */
function runUndo(record: PidRecord): void {
  for (const command of [...(record.undo ?? [])].reverse()) {
    try {
      execFileSync(command[0]!, command.slice(1), { stdio: 'ignore', timeout: 30_000 });
    } catch {
      // Already gone (the namespace or container was removed), or its tool is: nothing else to do.
    }
  }
}

/**
 * A guard for processes started beside a stack, in its state folder (an operator a test file starts):
 * should this process die without stopping them (a test worker killed), the guard stops them, as it does
 * the stack's own servers. Their command lines must name the folder. Released when they are stopped.
 */
export function guardBesideStack(stateDir: string, name: string, pids: number[]): OrphanGuard {
  const fileName = `${name}.pids.json`;
  const record: PidRecord = { owner: process.pid, pids };
  writeFileSync(join(stateDir, fileName), JSON.stringify(record));
  const guard = startOrphanGuard(stateDir, fileName);
  return {
    release() {
      guard.release();
      rmSync(join(stateDir, fileName), { force: true });
    },
  };
}

/**
 * Reaps like `reapStack` and waits (boundedly) until the killed processes are gone, so their ports are
 * free when the new run chooses its own: a port still held by the previous run would otherwise look
 * taken and the new run would have to move.
 */
export async function reapStackAndWait(stateDir: string, timeoutMs = 10_000): Promise<number> {
  const pids: number[] = [];
  const killed = reapStack(stateDir, pids);
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return killed;
}

/** Kills what an ownerless stack in `stateDir` left running; only processes whose command line names that folder. */
export function reapStack(stateDir: string, killedPids: number[] = []): number {
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
      killedPids.push(pid);
      killed++;
    }
  }
  runUndo(record);
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
