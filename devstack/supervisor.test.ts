import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess, type ManagedProcess } from './process.ts';
import { Supervisor } from './supervisor.ts';

// Real processes (`sleep`), so exits, restarts and stops are the operating system's, not simulated.
const dir = mkdtempSync(join(tmpdir(), 'supervisor-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleeper = (name: string) => ({ name, start: async () => startProcess(name, 'sleep', ['1000'], join(dir, `${name}.log`)) });

async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Supervisor', () => {
  it('restarts a killed process, reports it down meanwhile, and says so in one line each way', async () => {
    const lines: string[] = [];
    const pidSets: number[][] = [];
    const s = new Supervisor((l) => lines.push(l), (p) => pidSets.push(p));
    const first = await s.add(sleeper('a'));
    await s.add(sleeper('b'));
    expect(s.health()).toEqual({ ok: true, down: [] });
    process.kill(first.pid, 'SIGKILL');
    const down = await until('a down', () => (s.health().ok ? undefined : s.health()));
    expect(down.down).toEqual([{ name: 'a', since: expect.any(Number), reason: 'signal SIGKILL' }]);
    const again = await until('a back', () => s.processes().find((p) => p.name === 'a' && p.pid !== first.pid));
    expect(s.health().ok).toBe(true);
    expect(pidSets.at(-1)).toEqual([again.pid, s.processes()[1]!.pid]);
    expect(lines).toEqual(['a exited (signal SIGKILL); restarting it on the same port and data', expect.stringMatching(/^a is back after [\d.]+s \(pid \d+\)$/)]);
    await s.stop();
    expect(s.processes().every((p) => p.exited)).toBe(true);
  });

  it('restarts nothing after stop, and a stack without restarts only reports the death', async () => {
    const lines: string[] = [];
    const s = new Supervisor((l) => lines.push(l), () => {}, false);
    const p: ManagedProcess = await s.add(sleeper('c'));
    process.kill(p.pid, 'SIGKILL');
    await until('c down', () => !s.health().ok);
    expect(lines).toEqual(['c exited (signal SIGKILL); this stack does not restart its servers']);
    await s.stop();

    const t = new Supervisor(() => {});
    const q = await t.add(sleeper('d'));
    await t.stop();
    expect(q.exited).toBe('signal SIGTERM');
    expect(t.processes()[0]!.pid).toBe(q.pid);
  });
});
