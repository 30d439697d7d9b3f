import { describe, expect, it } from 'vitest';
import { startPhases, UNTIMED } from './start-phases.ts';

function records() {
  const lines: { fields: object; msg: string }[] = [];
  return { lines, info: (fields: object, msg: string) => void lines.push({ fields, msg }) };
}

describe('startPhases', () => {
  it('records one line per step with its name and whole milliseconds, and passes the result through', async () => {
    const log = records();
    const clock = [100, 1_334.6];
    const phase = startPhases(log, () => clock.shift()!);
    await expect(phase('core worker', async () => 'worker')).resolves.toBe('worker');
    expect(log.lines).toEqual([{ fields: { phase: 'core worker', ms: 1_235 }, msg: 'start phase' }]);
  });

  it('records nothing for a step that fails, and the failure reaches the caller', async () => {
    const log = records();
    const phase = startPhases(log);
    await expect(phase('informer sync', () => Promise.reject(new Error('forbidden')))).rejects.toThrow('forbidden');
    expect(log.lines).toEqual([]);
  });

  it('UNTIMED runs the step and only returns its result', async () => {
    await expect(UNTIMED('anything', () => 7)).resolves.toBe(7);
  });
});
