import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runBounded } from './run-bounded.ts';

describe('runBounded', () => {
  it('resolves with stdout and stderr on exit 0, lines to onLine (a line split across chunks whole)', async () => {
    const lines: string[] = [];
    const out = await runBounded('sh', ['-c', 'printf "one\\ntw"; sleep 0.1; printf "o\\n"; echo err >&2'], 'sh', { timeoutMs: 5_000, onLine: (l) => lines.push(l) });
    expect(out).toContain('one\ntwo\n');
    expect(out).toContain('err');
    expect(lines).toEqual(['one', 'two', 'err']);
  });

  it('passes input and environment', async () => {
    const out = await runBounded('sh', ['-c', 'cat; echo "$RB_TEST"'], 'sh', { timeoutMs: 5_000, input: Readable.from(['piped\n']), env: { RB_TEST: 'set' } });
    expect(out).toBe('piped\nset\n');
  });

  it('rejects naming the label, the exit code and the output tail', async () => {
    await expect(runBounded('sh', ['-c', 'echo why; exit 3'], '`sh why`', { timeoutMs: 5_000 })).rejects.toThrow('`sh why` failed (exit 3):\nwhy');
  });

  it('rejects at the timeout even while a child of the command still holds its output open', async () => {
    const t0 = Date.now();
    // The background sleep keeps stdout open after sh is killed: close would come only after 5 s.
    await expect(runBounded('sh', ['-c', 'echo started; sleep 5 & wait'], 'slow', { timeoutMs: 300 })).rejects.toThrow('slow did not finish within 0.3s. Last output:\nstarted');
    expect(Date.now() - t0).toBeLessThan(3_000);
  });
});
