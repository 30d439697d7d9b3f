// The guard with real processes: an owner records a server's pid (as a stack does) and is SIGKILLed;
// the guard stops the server and removes the pid file. An owner that releases its guard (a stack stopped
// by its owner) leaves everything to the owner.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pidExists } from './process.ts';

const dir = mkdtempSync(join(tmpdir(), 'orphan-guard-test-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * An owner process: starts a "server" in its own session whose command line names `stateDir` (as the
 * stack's servers do), records its pid, optionally releases the guard, prints the server's pid, and waits.
 */
function startOwner(stateDir: string, release: boolean, beside?: string, undo?: string[]): { owner: ChildProcess; serverPid: Promise<number> } {
  const leftovers = resolve('devstack/leftovers.ts');
  const dir = JSON.stringify(stateDir);
  // A stack's server (its pid file), or, with `beside`, a process started beside the stack (an operator).
  const record = beside ? `guardBesideStack(${dir}, ${JSON.stringify(beside)}, [server.pid]);` : `recordPids(${dir}, [server.pid]);`;
  const code = `
    import { spawn } from 'node:child_process';
    import { guardBesideStack, recordPids, recordUndo, removePidFile } from ${JSON.stringify(leftovers)};
    const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ${dir}], { stdio: 'ignore', detached: true });
    server.unref();
    ${record}
    ${undo ? `recordUndo(${dir}, ${JSON.stringify(undo)});` : ''}
    ${release ? `removePidFile(${dir});` : ''}
    process.stdout.write(server.pid + '\\n');
    setInterval(() => {}, 1000);
  `;
  const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(owner);
  const serverPid = new Promise<number>((res) => owner.stdout!.once('data', (d: Buffer) => res(Number(d.toString().trim()))));
  return { owner, serverPid };
}

describe('orphan guard', () => {
  it('stops the servers of an owner killed with SIGKILL, and removes its pid file', async () => {
    const stateDir = join(dir, 'killed');
    await import('node:fs').then((fs) => fs.mkdirSync(stateDir));
    const { owner, serverPid } = startOwner(stateDir, false);
    const pid = await serverPid;
    expect(pidExists(pid)).toBe(true);
    expect(existsSync(join(stateDir, 'stack.pids.json'))).toBe(true);
    owner.kill('SIGKILL');
    await until('the server to be stopped', () => !pidExists(pid));
    await until('the pid file to go', () => !existsSync(join(stateDir, 'stack.pids.json')));
  });

  it("runs the stack's undo commands (its network namespace, its node's container) once its servers are stopped", async () => {
    const stateDir = join(dir, 'undo');
    const fs = await import('node:fs');
    fs.mkdirSync(stateDir);
    // Stands for a network namespace: something the stack made that is not a process.
    const made = join(stateDir, 'made-by-the-stack');
    fs.writeFileSync(made, '');
    const { owner, serverPid } = startOwner(stateDir, false, undefined, ['rm', '-f', made]);
    const pid = await serverPid;
    expect(existsSync(made)).toBe(true);
    owner.kill('SIGKILL');
    await until('the server to be stopped', () => !pidExists(pid));
    await until('the undo command to have run', () => !existsSync(made));
    expect(fs.readFileSync(join(stateDir, 'orphan-guard.log'), 'utf8')).toContain(`undo: rm -f ${made} (exit 0)`);
  });

  it('stops a process started beside the stack (an operator) when its owner is killed, and removes its own pid file', async () => {
    const stateDir = join(dir, 'beside');
    await import('node:fs').then((fs) => fs.mkdirSync(stateDir));
    const { owner, serverPid } = startOwner(stateDir, false, 'kuberay-operator-1');
    const pid = await serverPid;
    expect(existsSync(join(stateDir, 'kuberay-operator-1.pids.json'))).toBe(true);
    owner.kill('SIGKILL');
    await until('the operator to be stopped', () => !pidExists(pid));
    await until('its pid file to go', () => !existsSync(join(stateDir, 'kuberay-operator-1.pids.json')));
  });

  it('leaves the servers alone once the owner has released it', async () => {
    const stateDir = join(dir, 'released');
    await import('node:fs').then((fs) => fs.mkdirSync(stateDir));
    const { owner, serverPid } = startOwner(stateDir, true);
    const pid = await serverPid;
    owner.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(pidExists(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
  });
});
