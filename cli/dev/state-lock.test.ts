import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../repo-root.ts';
import { LOCK_FILE, lockStateFolder } from './state-lock.ts';

/** A pid no process has any more: a child that has exited and been reaped. */
const deadPid = () => spawnSync('true').pid!;

describe('one local stack per state folder', () => {
  const dirs: string[] = [];
  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kar-state-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('a second lock on a folder whose holder is alive is refused, naming the holder', () => {
    const dir = stateDir();
    lockStateFolder(dir);
    expect(() => lockStateFolder(dir, process.pid + 1)).toThrow(`A local stack already runs on ${dir} (npm run dev, pid ${process.pid})`);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('a lock left by a process that is gone is taken over; release removes only its own', () => {
    const dir = stateDir();
    writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
    const lock = lockStateFolder(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    writeFileSync(join(dir, LOCK_FILE), '1\n');
    lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('1\n');
  });

  it('npm run dev on a locked folder exits at once with that sentence and touches nothing there', () => {
    const dir = stateDir();
    writeFileSync(join(dir, 'stack.pids.json'), '{"a running stack":"its file"}');
    lockStateFolder(dir);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'dev', '--state-dir', dir], { cwd: repoRoot(), encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain(`A local stack already runs on ${dir} (npm run dev, pid ${process.pid})`);
    expect(readdirSync(dir).sort()).toEqual([LOCK_FILE, 'stack.pids.json']);
    expect(readFileSync(join(dir, 'stack.pids.json'), 'utf8')).toBe('{"a running stack":"its file"}');
  });
});
