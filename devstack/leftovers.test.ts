import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reapStackAndWait } from './leftovers.ts';
import { freePort, portIsFree } from './ports.ts';

const dir = mkdtempSync(join(tmpdir(), 'leftovers-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reapStackAndWait', () => {
  it('kills what a dead owner left listening and returns once its port is free again', async () => {
    // A dead owner: a process that has already exited.
    const owner = spawn('true');
    await new Promise((r) => owner.once('exit', r));
    const port = await freePort();
    // The leftover names the state folder in its command line, as every stack server does.
    const leftover = spawn(process.execPath, ['-e', `require('net').createServer().listen(${port}, '127.0.0.1'); setInterval(() => {}, 1000)`, dir], { stdio: 'ignore' });
    await new Promise<void>((resolve) => {
      const check = async () => ((await portIsFree(port)) ? setTimeout(check, 20) : resolve());
      void check();
    });
    writeFileSync(join(dir, 'stack.pids.json'), JSON.stringify({ owner: owner.pid, pids: [leftover.pid] }));
    expect(await reapStackAndWait(dir)).toBe(1);
    // The leftover is this test's own child, so it lingers as a zombie until Node collects it (a real
    // leftover's parent is gone and init collects it at once): give the port that moment, boundedly.
    const deadline = Date.now() + 5_000;
    while (!(await portIsFree(port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await portIsFree(port)).toBe(true);
    expect(existsSync(join(dir, 'stack.pids.json'))).toBe(false);
  });

  it('runs what a dead owner recorded to undo (its network namespace, its node container), last first', async () => {
    const owner = spawn('true');
    await new Promise((r) => owner.once('exit', r));
    const order = join(dir, 'undo-order');
    const append = (word: string) => ['sh', '-c', `echo ${word} >> ${order}`];
    writeFileSync(join(dir, 'stack.pids.json'), JSON.stringify({ owner: owner.pid, pids: [], undo: [append('netns'), ['false'], append('container')] }));
    expect(await reapStackAndWait(dir)).toBe(0);
    // A failing command does not stop the ones after it.
    expect(readFileSync(order, 'utf8')).toBe('container\nnetns\n');
    expect(existsSync(join(dir, 'stack.pids.json'))).toBe(false);
  });

  it('leaves a live owner’s stack alone', async () => {
    writeFileSync(join(dir, 'stack.pids.json'), JSON.stringify({ owner: process.pid === 1 ? 2 : 1, pids: [] }));
    expect(await reapStackAndWait(dir)).toBe(0);
    expect(existsSync(join(dir, 'stack.pids.json'))).toBe(true);
  });
});
