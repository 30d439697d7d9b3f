import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, closeSync } from 'node:fs';

export interface ManagedProcess {
  name: string;
  pid: number;
  logFile: string;
  child: ChildProcess;
  /** Set when the process has exited (with its code or signal). */
  exited: string | undefined;
}

/** Every process the stack started in this Node process, so exit handlers can stop them all. */
const running = new Set<ManagedProcess>();

/**
 * Whether a process of this id exists and this user may signal it (`kill -0`). A zombie still counts;
 * for "may it still hold ports" see devstack/leftovers.ts's alive().
 */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function tailOf(file: string, lines = 25): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

export function startProcess(name: string, bin: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = {}): ManagedProcess {
  const fd = openSync(logFile, 'a');
  // Own process group: a terminal's Ctrl-C must not reach the servers directly, or they would die before
  // the controller using them has stopped. They are stopped here, in order, by process id.
  const child = spawn(bin, args, { stdio: ['ignore', fd, fd], env: { ...process.env, ...env }, detached: true });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name} failed to start (${bin})`);
  const proc: ManagedProcess = { name, pid: child.pid, logFile, child, exited: undefined };
  child.on('exit', (code, signal) => {
    proc.exited = signal ? `signal ${signal}` : `code ${code}`;
    running.delete(proc);
  });
  running.add(proc);
  return proc;
}

/** Polls `check` until it returns true, failing early with the log's tail if the process dies. */
export async function waitUntil(proc: ManagedProcess, what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    if (proc.exited) throw new Error(`${proc.name} exited (${proc.exited}) before ${what}. Last lines of ${proc.logFile}:\n${tailOf(proc.logFile)}`);
    try {
      if (await check()) return;
    } catch (err) {
      lastError = (err as Error).message;
    }
    if (Date.now() > deadline) {
      // A server that never got ready must not keep its ports: the caller may start it again.
      try {
        process.kill(proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      throw new Error(
        `${proc.name} not ${what} after ${timeoutMs / 1000}s${lastError ? ` (last error: ${lastError})` : ''}. Last lines of ${proc.logFile}:\n${tailOf(proc.logFile)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Stops one process by its id: SIGTERM, then SIGKILL if it has not exited after the grace period. */
export async function stopProcess(proc: ManagedProcess, graceMs = 10_000): Promise<void> {
  if (proc.exited) return;
  const exited = new Promise<void>((resolve) => proc.child.once('exit', () => resolve()));
  try {
    process.kill(proc.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    try {
      process.kill(proc.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
  }
}

/** Stops (SIGTERM, then SIGKILL after the grace period) every process still running whose log is in `dir`. */
export async function stopProcessesLoggingIn(dir: string, graceMs = 10_000): Promise<void> {
  await Promise.all([...running].filter((p) => p.logFile.startsWith(dir)).map((p) => stopProcess(p, graceMs)));
}

/** Synchronous last resort for process exit paths, where no promise will be awaited. */
export function killAllNow(): void {
  for (const proc of running) {
    try {
      process.kill(proc.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

let hooked = false;
/** Makes sure an interrupted run (Ctrl-C, SIGTERM, a crash) leaves no process behind. */
export function killChildrenOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAllNow);
}
