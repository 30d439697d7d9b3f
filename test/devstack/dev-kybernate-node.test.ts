// `npm run dev -- --kybernate-node`: the dev stack starts the Kybernate node container (trixie's containerd
// and CRIU 4 on the private Docker engine) and runs the node worker on its containerd, as node `dev-node`;
// Ctrl-C stops the worker, the node container and the Docker engine it started, with nothing left. Asked
// for where no engine can run, the start fails at once, saying why.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeTaskQueue } from '../../api/kybernate/constants.ts';
import { ContainerdClient } from '../../containerd/client.ts';
import { nodeUnavailable } from '../../devstack/dev-node.ts';
import { dockerClient, runDocker } from '../../devstack/docker.ts';
import { freePort } from '../../devstack/ports.ts';
import { eventually } from '../support/env.ts';
import { devArgs, followDev, killDevRuns, type DevPorts, type DevRun } from '../support/dev-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'kubeairunway-dev-node-'));
const DOCKER_RUN_DIR = join(tmpdir(), `kubeairunway-docker-${process.getuid?.() ?? 0}`);

function startDev(stateDir: string, ports: DevPorts, extra: string[] = [], env: NodeJS.ProcessEnv = {}): DevRun {
  return followDev(spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'dev', ...devArgs(stateDir, ports), ...extra], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } }));
}

/** The private dockerd running now, if any (its pid file, and the process alive). */
function dockerdPid(): number | undefined {
  try {
    const pid = Number(readFileSync(join(DOCKER_RUN_DIR, 'dockerd.pid'), 'utf8').trim());
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Every process whose command line names the state folder (the node's `docker run`, the containerd inside it, the stack's servers). */
function processesNaming(stateDir: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(stateDir) && !line.includes('ps -eo'));
}

describe('npm run dev -- --kybernate-node', () => {
  afterAll(async () => {
    killDevRuns();
    const { reapStackAndWait } = await import('../../devstack/leftovers.ts');
    await reapStackAndWait(dir);
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the start at once, saying why, where the node cannot run', async () => {
    const ports = { temporal: await freePort(), ui: await freePort(), metrics: await freePort() };
    const run = startDev(join(dir, 'refused'), ports, ['--kybernate-node'], { KUBEAIRUNWAY_DOCKERD: '/nonexistent/dockerd' });
    const code = await Promise.race([run.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 60_000))]);
    expect(code, run.output()).toBe(1);
    expect(run.output()).toContain('--kybernate-node cannot start the Kybernate node container here: ');
    expect(run.output()).toContain('no dockerd at /nonexistent/dockerd');
    // Nothing was started for it.
    expect(run.output()).not.toContain('etcd');
    expect(existsSync(join(dir, 'refused', 'stack.pids.json'))).toBe(false);
  });

  it.skipIf(nodeUnavailable() !== undefined)(`runs the node worker on the node container's containerd, and Ctrl-C stops worker, node and its dockerd${nodeUnavailable() ? ` (skipped: ${nodeUnavailable()})` : ''}`, async () => {
    const joined = dockerdPid();
    const ports = { temporal: await freePort(), ui: await freePort(), metrics: await freePort() };
    const stateDir = join(dir, 'node');
    const run = startDev(stateDir, ports, ['--kybernate-node']);
    // The node image is built on the first run (minutes); cached afterwards.
    await eventually('dev to be running with its node', async () => run.output().includes('Press Ctrl-C') || (run.child.exitCode !== null && Promise.reject(new Error(run.output()))), 25 * 60_000, 500);

    const line = /node: {9}dev-node: the Kybernate node worker on the node container's containerd \((\S+), CRIU ([^)]+)\)/.exec(run.output());
    expect(line, run.output()).not.toBeNull();
    const [socket, criu] = [line![1]!, line![2]!];
    expect(criu).toMatch(/^([4-9]|[1-9]\d)\./);
    expect(socket).toBe(join(stateDir, 'kybernate-node', 'containerd', 'containerd.sock'));
    const container = /docker exec (kubeairunway-dev-node-\d+) ctr/.exec(run.output())?.[1] ?? '';
    expect(container).not.toBe('');
    const host = /DOCKER_HOST=(\S+) docker exec/.exec(run.output())![1]!;
    // containerd answers on the socket the node worker dials, from inside the node container.
    const client = new ContainerdClient({ socket, namespace: 'k8s.io', timeoutMs: 5_000 });
    try {
      expect((await client.version()).version).toMatch(/^1\.7\./);
    } finally {
      client.close();
    }
    expect((await runDocker(dockerClient()!, host, ['ps', '--filter', `name=${container}`, '--format', '{{.Names}}'])).trim()).toBe(container);
    // The node worker polls its node's task queue on the dev stack's Temporal.
    const connection = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
    try {
      const pollers = await eventually('the node worker to poll its queue', async () => {
        const res = await connection.workflowService.describeTaskQueue({
          namespace: 'default',
          taskQueue: { name: nodeTaskQueue('kubeairunway', 'dev-node') },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
        });
        return (res.pollers?.length ?? 0) > 0 ? res.pollers : undefined;
      }, 30_000);
      expect(pollers!.length).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }

    run.child.kill('SIGINT');
    const code = await Promise.race([run.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 180_000))]);
    expect(code, run.output()).toBe(0);
    expect(run.output()).toMatch(/\[dev\] stopped\n/);
    expect(run.output()).not.toMatch(/Uncaught|unhandled|error while stopping|removing node .*:/i);
    // Nothing of the node is left: no process naming the state folder (the node's `docker run`, its
    // containerd), no socket answering, and the dockerd this run started is gone (one another process
    // started, which this run joined, is left running, without the node container).
    expect(processesNaming(stateDir)).toEqual([]);
    const after = new ContainerdClient({ socket, namespace: 'k8s.io', timeoutMs: 2_000 });
    try {
      await expect(after.version()).rejects.toThrow();
    } finally {
      after.close();
    }
    if (joined === undefined) {
      expect(run.output()).toContain('docker: private dockerd (pid');
      expect(dockerdPid()).toBeUndefined();
    } else {
      expect(run.output()).toContain('docker: joining the private dockerd already running');
      expect((await runDocker(dockerClient()!, host, ['ps', '-a', '--filter', `name=${container}`, '--format', '{{.Names}}'])).trim()).toBe('');
    }
  }, 30 * 60_000);
});
