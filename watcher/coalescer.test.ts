import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalescer.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

function controllable() {
  const calls: [string, number][] = [];
  const releases: (() => void)[] = [];
  const send = (key: string, item: number) =>
    new Promise<void>((resolve) => {
      calls.push([key, item]);
      releases.push(resolve);
    });
  return { calls, releases, send };
}

describe('Coalescer', () => {
  it('keeps one send in flight per key and collapses a burst into one follow-up with the newest item', async () => {
    const { calls, releases, send } = controllable();
    const c = new Coalescer<number>(send);
    c.trigger('a', 1);
    c.trigger('a', 2);
    c.trigger('a', 3);
    await tick();
    expect(calls).toEqual([['a', 1]]);
    releases.shift()!();
    await tick();
    await tick();
    expect(calls).toEqual([['a', 1], ['a', 3]]);
    releases.shift()!();
    await tick();
    expect(c.busy).toBe(0);
  });

  it('sends for different keys independently, within the concurrency bound', async () => {
    const { calls, releases, send } = controllable();
    const c = new Coalescer<number>(send, { concurrency: 2 });
    c.trigger('a', 1);
    c.trigger('b', 1);
    c.trigger('c', 1);
    await tick();
    expect(calls.map(([k]) => k)).toEqual(['a', 'b']);
    releases.shift()!();
    await tick();
    await tick();
    expect(calls.map(([k]) => k)).toEqual(['a', 'b', 'c']);
  });

  it('retries a failed send after a backoff unless a newer trigger replaced it', async () => {
    const sent: number[] = [];
    let fail = true;
    const errors: number[] = [];
    const c = new Coalescer<number>(
      async (_k, item) => {
        sent.push(item);
        if (fail) throw new Error('temporal unavailable');
      },
      { retryBaseMs: 5, onError: (_k, _e, delay) => errors.push(delay) },
    );
    c.trigger('a', 1);
    await new Promise((r) => setTimeout(r, 2));
    fail = false;
    await new Promise((r) => setTimeout(r, 30));
    expect(sent).toEqual([1, 1]);
    expect(errors).toEqual([5]);
    expect(c.busy).toBe(0);
  });

  it('does not report a send in flight at stop() that fails afterwards (the connection closing), nor retry it', async () => {
    const failures: ((err: Error) => void)[] = [];
    const errors: string[] = [];
    let sends = 0;
    const c = new Coalescer<number>(
      (_k) => {
        sends++;
        return new Promise<void>((_resolve, reject) => failures.push(reject));
      },
      { retryBaseMs: 1, onError: (k, e) => errors.push(`${k}: ${(e as Error).message}`) },
    );
    c.trigger('before', 1);
    c.trigger('during', 1);
    await tick();
    failures.shift()!(new Error('temporal unavailable'));
    await tick();
    expect(errors).toEqual(['before: temporal unavailable']);
    c.stop();
    failures.shift()!(new Error('Client already closed'));
    await new Promise((r) => setTimeout(r, 10));
    expect(errors).toEqual(['before: temporal unavailable']);
    expect(sends).toBe(2);
    expect(c.busy).toBe(0);
  });
});
