import { describe, expect, it } from 'vitest';
import { DUPLICATE_WINDOW_MS, InterruptCounter, PRESSES_TO_FORCE, repeatMessage, type Interrupt } from './interrupt-counter.ts';

/** Feeds signals at the given times; returns what each one meant. */
function feed(times: number[], counter = new InterruptCounter()): Interrupt['kind'][] {
  return times.map((t) => counter.signal(t).kind);
}

describe('InterruptCounter', () => {
  it('takes a terminal Ctrl-C and its relayed copy (a few ms apart) for one press', () => {
    expect(feed([1_000, 1_003])).toEqual(['stop', 'duplicate']);
    expect(feed([1_000, 1_000])).toEqual(['stop', 'duplicate']);
  });

  it('counts presses further apart than the window, each with its copy, and forces on the third', () => {
    expect(feed([0, 5, 1_000, 1_004, 2_000, 2_002])).toEqual(['stop', 'duplicate', 'repeat', 'duplicate', 'force', 'duplicate']);
  });

  it('says the presses that really force: after the second press, exactly one more forces', () => {
    const counter = new InterruptCounter();
    expect(counter.signal(0)).toEqual({ kind: 'stop' });
    expect(counter.signal(10)).toEqual({ kind: 'duplicate' });
    const repeat = counter.signal(1_000);
    expect(repeat).toEqual({ kind: 'repeat', remaining: 1 });
    expect(repeatMessage(repeat.kind === 'repeat' ? repeat.remaining : -1)).toBe('still stopping; press Ctrl-C once more to kill everything at once');
    // ... and that one more press (with its copy) forces.
    expect(counter.signal(2_000)).toEqual({ kind: 'force' });
  });

  it('announces the right count whatever the number of presses to force', () => {
    const counter = new InterruptCounter(DUPLICATE_WINDOW_MS, 4);
    expect(counter.signal(0).kind).toBe('stop');
    expect(counter.signal(1_000)).toEqual({ kind: 'repeat', remaining: 2 });
    expect(counter.signal(2_000)).toEqual({ kind: 'repeat', remaining: 1 });
    expect(counter.signal(3_000).kind).toBe('force');
    expect(repeatMessage(2)).toContain('twice more');
    expect(repeatMessage(3)).toContain('3 more times');
  });

  it('counts the window from the press that counted, so a stream of copies cannot stretch it', () => {
    const w = DUPLICATE_WINDOW_MS;
    expect(feed([0, w / 2, w - 1, w])).toEqual(['stop', 'duplicate', 'duplicate', 'repeat']);
  });

  it('forces after PRESSES_TO_FORCE separate presses, never on copies alone', () => {
    expect(feed(Array.from({ length: 50 }, (_, i) => i * 5))).toEqual(['stop', ...Array(49).fill('duplicate')]);
    const presses = Array.from({ length: PRESSES_TO_FORCE }, (_, i) => i * (DUPLICATE_WINDOW_MS + 1));
    expect(feed(presses).at(-1)).toBe('force');
  });
});
