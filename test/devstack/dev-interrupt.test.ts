// Ctrl-C stops everything, always. The dev process is started exactly as package.json's `dev` script
// starts it (after setup), in a process group of its own as a terminal's foreground job is; it is made
// busy (15 deployments applied just before) and the whole group gets SIGINT, as a terminal's Ctrl-C
// sends it: no server may be left. And when the dev process dies without any chance to stop its servers
// (SIGKILL), its orphan guard stops them within seconds.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../devstack/ports.ts';
import { eventually } from '../support/env.ts';
import { devArgs, devReady, followDev, killDevRuns, type DevPorts, type DevRun } from '../support/dev-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'kubeairunway-dev-interrupt-'));

/** The command the `dev` script runs once setup is done: what stands between the terminal and the servers. */
function devScriptCommand(): string {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.dev!;
  const parts = script.split('&&').map((p) => p.trim());
  expect(parts[0]).toBe('node scripts/setup.mjs');
  return parts.slice(1).join(' && ');
}

function startDev(stateDir: string, ports: DevPorts): DevRun {
  // detached: a process group of its own, led by the shell that execs the script's command, like a terminal job.
  return followDev(spawn('sh', ['-c', `${devScriptCommand()} ${devArgs(stateDir, ports).join(' ')}`], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
}

const ready = devReady;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Every process on the machine whose command line names the state folder (the servers, the guard). */
function processesNaming(stateDir: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(stateDir) && !line.includes('ps -eo'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

function serverPids(stateDir: string): number[] {
  return (JSON.parse(readFileSync(join(stateDir, 'stack.pids.json'), 'utf8')) as { pids: number[] }).pids;
}

function deploymentsYaml(count: number): string {
  const one = readFileSync('examples/cpu-gguf-kaito.yaml', 'utf8');
  return Array.from({ length: count }, (_, i) => one.replace('name: gemma-cpu', `name: busy-${i}`)).join('\n---\n');
}

afterAll(async () => {
  killDevRuns();
  const { reapStackAndWait } = await import('../../devstack/leftovers.ts');
  for (const sub of ['ctrl-c', 'sigkill']) await reapStackAndWait(join(dir, sub));
  rmSync(dir, { recursive: true, force: true });
});

describe('kubeairunway dev, interrupted', () => {
  it('runs no tsx process between the terminal and the process that owns the servers', () => {
    expect(devScriptCommand()).toMatch(/^exec node (--import tsx )?cli\/main\.(ts|js) dev$|^exec node dist\/cli\/main\.js dev$/);
  });

  it('stops every server on a Ctrl-C to the whole terminal group while busy', async () => {
    const stateDir = join(dir, 'ctrl-c');
    const run = startDev(stateDir, { temporal: await freePort(), ui: await freePort(), metrics: await freePort() });
    await ready(run);
    const servers = serverPids(stateDir);
    expect(servers.length).toBeGreaterThanOrEqual(6);
    const kubeconfig = join(stateDir, 'kubeconfig');
    execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], { input: deploymentsYaml(15), encoding: 'utf8' });
    // About when the runs were interrupted: the controller busy with the new deployments.
    await new Promise((r) => setTimeout(r, 700));
    process.kill(-run.child.pid!, 'SIGINT');
    const code = await Promise.race([run.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 120_000))]);
    expect(code, run.output()).toBe(0);
    expect(run.output()).toMatch(/\[dev\] stopped\n/);
    // It ended by itself: nothing (such as a simulator's retry of a write in flight) held it after the stop.
    expect(run.output()).not.toContain('still running a moment after stopping');
    for (const pid of servers) expect(alive(pid), `server pid ${pid} left running\n${run.output()}`).toBe(false);
    await eventually('no process naming the state folder', async () => processesNaming(stateDir).length === 0, 10_000, 100);
    expect(existsSync(join(stateDir, 'stack.pids.json'))).toBe(false);
  }, 400_000);

  it('has its servers stopped by the orphan guard when the dev process is SIGKILLed', async () => {
    const stateDir = join(dir, 'sigkill');
    const run = startDev(stateDir, { temporal: await freePort(), ui: await freePort(), metrics: await freePort() });
    await ready(run);
    const servers = serverPids(stateDir);
    // The shell exec'd the dev process: the group's leader is it.
    process.kill(run.child.pid!, 'SIGKILL');
    await run.exited;
    await eventually('every server stopped', async () => servers.every((pid) => !alive(pid)), 30_000, 100);
    await eventually('no process naming the state folder', async () => processesNaming(stateDir).length === 0, 10_000, 100);
    expect(existsSync(join(stateDir, 'stack.pids.json'))).toBe(false);
    expect(readFileSync(join(stateDir, 'orphan-guard.log'), 'utf8')).toMatch(/is gone without stopping its servers/);
  }, 400_000);
});
