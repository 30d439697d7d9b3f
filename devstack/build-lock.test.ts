import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withBuildLock } from './build-lock.ts';

const dirs: string[] = [];
const lockDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('withBuildLock', () => {
  it('runs builds of one name one after another, and of different names at once', async () => {
    const dir = lockDir();
    const events: string[] = [];
    const build = (id: string) => async () => {
      events.push(`${id} start`);
      await new Promise((r) => setTimeout(r, 50));
      events.push(`${id} end`);
      return id;
    };
    const results = await Promise.all([
      withBuildLock(dir, 'img:a', build('a1'), { pollMs: 10 }),
      withBuildLock(dir, 'img:a', build('a2'), { pollMs: 10 }),
      withBuildLock(dir, 'img:b', build('b'), { pollMs: 10 }),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b']);
    expect(events.indexOf('a2 start')).toBeGreaterThan(events.indexOf('a1 end'));
    expect(events.indexOf('b start')).toBeLessThan(events.indexOf('a1 end'));
  });

  it('says once whose build it waits for, and frees the lock when the build fails', async () => {
    const dir = lockDir();
    const said: string[] = [];
    let release!: () => void;
    const first = withBuildLock(dir, 'kubeairunway-local/x:test', () => new Promise<void>((r) => (release = r)));
    const second = withBuildLock(dir, 'kubeairunway-local/x:test', async () => 'second', { pollMs: 10, log: (l) => said.push(l) });
    await new Promise((r) => setTimeout(r, 60));
    release();
    await first;
    expect(await second).toBe('second');
    expect(said).toEqual([`image kubeairunway-local/x:test: waiting for the build in process ${process.pid} (another test file builds it)`]);
    await expect(withBuildLock(dir, 'y', async () => Promise.reject(new Error('build failed')))).rejects.toThrow('build failed');
    expect(await withBuildLock(dir, 'y', async () => 'after')).toBe('after');
  });

  it('takes over a lock whose process is gone', async () => {
    const dir = lockDir();
    // A process id that does not run: beyond the kernel's pid_max.
    writeFileSync(join(dir, 'z.lock'), String(2 ** 22 + 1));
    expect(await withBuildLock(dir, 'z', async () => readFileSync(join(dir, 'z.lock'), 'utf8'))).toBe(String(process.pid));
  });

  it('gives up after its bound, naming the process that holds the lock', async () => {
    const dir = lockDir();
    writeFileSync(join(dir, 'w.lock'), String(process.ppid));
    await expect(withBuildLock(dir, 'w', async () => 'never', { timeoutMs: 50, pollMs: 10 })).rejects.toThrow(`gave up waiting for process ${process.ppid}'s build of w`);
  });
});
