// `kubeairunway dev` as a person runs it, in a child process: a run killed with SIGKILL leaves its
// servers behind, and the next run reaps them before choosing ports, so it comes back on the same fixed
// ports; Ctrl-C while the Temporal server is down stops everything cleanly; a Ctrl-C's two SIGINTs (the
// terminal's and a wrapper's relayed copy) count as one press; a port really taken by someone else fails
// the start naming that process.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { portHolder } from '../../devstack/port-holder.ts';
import { freePort } from '../../devstack/ports.ts';
import { eventually } from '../support/env.ts';
import { devArgs, devReady, followDev, killDevRuns, type DevPorts, type DevRun } from '../support/dev-run.ts';


function startDev(stateDir: string, ports: DevPorts): DevRun {
  return followDev(spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'dev', ...devArgs(stateDir, ports)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** The orphan guards (devstack/orphan-guard.ts) of stacks in `stateDir`: they name it and their log file. */
function guardsOf(stateDir: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(stateDir) && line.includes('orphan-guard.log'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

const ready = devReady;

describe('kubeairunway dev', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubeairunway-dev-'));
  afterAll(async () => {
    killDevRuns();
    // Anything a killed run left is reaped by the next start; this one reaps the last.
    const { reapStackAndWait } = await import('../../devstack/leftovers.ts');
    await reapStackAndWait(dir);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaps a killed run before choosing ports, keeps them, and stops cleanly on Ctrl-C while Temporal is down', async () => {
    const ports = { temporal: await freePort(), ui: await freePort(), metrics: await freePort() };
    const first = startDev(dir, ports);
    await ready(first);
    const temporalPid = portHolder(ports.temporal)?.pid;
    expect(temporalPid).toBeDefined();
    // Killed with its orphan guard (which would otherwise stop the servers at once, see dev-interrupt.test.ts):
    // no handler runs, the servers stay behind for the next start to reap.
    for (const guard of guardsOf(dir)) process.kill(guard, 'SIGKILL');
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(join(dir, 'stack.pids.json'))).toBe(true);

    const second = startDev(dir, ports);
    await ready(second);
    expect(second.output()).toMatch(/stopped \d+ process\(es\) left over from an earlier run/);
    expect(second.output()).toContain(`Temporal:     127.0.0.1:${ports.temporal} (namespace default)`);
    expect(second.output()).toContain(`Temporal UI:  http://127.0.0.1:${ports.ui}`);
    const temporal = portHolder(ports.temporal);
    expect(temporal?.pid).not.toBe(temporalPid);

    // Ctrl-C right after the Temporal server died: the stop must not trip over the lost connection.
    process.kill(temporal!.pid!, 'SIGKILL');
    await eventually('the supervisor to notice', async () => second.output().includes('Temporal dev server exited (signal SIGKILL)'), 30_000, 20);
    second.child.kill('SIGINT');
    const code = await Promise.race([second.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 120_000))]);
    expect(code, second.output()).toBe(0);
    expect(second.output()).toMatch(/\[dev\] stopped\n/);
    expect(second.output()).not.toMatch(/Uncaught|unhandled|error while stopping/i);
    expect(existsSync(join(dir, 'stack.pids.json'))).toBe(false);
    for (const port of [ports.temporal, ports.ui, ports.metrics]) expect(portHolder(port)).toBeUndefined();
  }, 400_000);

  it('takes a Ctrl-C and its relayed copy (tsx and the terminal both send SIGINT) for one press: stops cleanly, not forced', async () => {
    const ports = { temporal: await freePort(), ui: await freePort(), metrics: await freePort() };
    const run = startDev(dir, ports);
    await ready(run);
    run.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 50));
    run.child.kill('SIGINT');
    const code = await Promise.race([run.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 120_000))]);
    // Forced would be exit code 130 with the servers SIGKILLed and the pid file left behind.
    expect(code, run.output()).toBe(0);
    expect(run.output()).toMatch(/\[dev\] stopped\n/);
    expect(run.output()).not.toContain('still stopping');
    expect(existsSync(join(dir, 'stack.pids.json'))).toBe(false);
    for (const port of [ports.temporal, ports.ui, ports.metrics]) expect(portHolder(port)).toBeUndefined();
  });

  it('fails the start naming the process that holds a fixed port, instead of moving it', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const taken = (server.address() as { port: number }).port;
    try {
      const run = startDev(dir, { temporal: taken, ui: await freePort(), metrics: await freePort() });
      const code = await Promise.race([run.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 120_000))]);
      expect(code).not.toBe(0);
      expect(run.output()).toContain(`The Temporal server port ${taken} is taken by pid ${process.pid} (`);
      expect(run.output()).toContain('choose another port with --temporal-port');
      expect(existsSync(join(dir, 'stack.pids.json'))).toBe(false);
    } finally {
      server.close();
    }
  });
});
