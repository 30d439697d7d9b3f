import { describe, expect, it } from 'vitest';
import { Later, listed, PartOrderError, PartStartError, startParts, startTogether, type PartSpec, type RecordLog } from './parts.ts';
import type { TimePhase } from './start-phases.ts';

/** A part that records its start and stop in `events`; its stop may hang, fail or throw. */
function fakePart(name: string, events: string[], stop: 'ok' | 'hang' | 'reject' | 'throw' = 'ok'): PartSpec {
  return {
    name,
    start: async () => {
      events.push(`start ${name}`);
      return {
        stop: () => {
          events.push(`stop ${name}`);
          if (stop === 'hang') return new Promise(() => {});
          if (stop === 'reject') return Promise.reject(new Error(`${name} broke`));
          if (stop === 'throw') throw new Error(`${name} threw`);
          return Promise.resolve();
        },
      };
    },
  };
}

function recordLog(): RecordLog & { records: { level: string; fields: object; msg: string }[] } {
  const records: { level: string; fields: object; msg: string }[] = [];
  const at = (level: string) => (fields: object, msg: string) => void records.push({ level, fields, msg });
  return { records, info: at('info'), warn: at('warn'), error: at('error') };
}

/** What the stops logged: every record but the start's timings. */
const stopRecords = (log: ReturnType<typeof recordLog>) => log.records.filter((r) => r.msg !== 'start phase');

describe('startParts', () => {
  it('starts the parts in order and stops them in reverse', async () => {
    const events: string[] = [];
    const running = await startParts(['a', 'b', 'c'].map((n) => fakePart(n, events)), { log: recordLog() });
    expect(running.names).toEqual(['a', 'b', 'c']);
    await running.stop();
    expect(events).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });

  it('bounds every stop: a part that hangs is logged and the ones before it still stop', async () => {
    const events: string[] = [];
    const log = recordLog();
    const running = await startParts([fakePart('a', events), fakePart('b', events, 'hang'), fakePart('c', events, 'hang')], { log, stopWithinMs: 20 });
    const t0 = Date.now();
    await running.stop();
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(events.slice(3)).toEqual(['stop c', 'stop b', 'stop a']);
    expect(stopRecords(log)).toEqual([
      { level: 'warn', fields: {}, msg: 'c did not stop within 0.02s; going on' },
      { level: 'warn', fields: {}, msg: 'b did not stop within 0.02s; going on' },
    ]);
  });

  it('logs a failed stop, whether rejected or thrown, and goes on', async () => {
    const events: string[] = [];
    const log = recordLog();
    const running = await startParts([fakePart('a', events), fakePart('b', events, 'reject'), fakePart('c', events, 'throw')], { log });
    await running.stop();
    expect(events.slice(3)).toEqual(['stop c', 'stop b', 'stop a']);
    expect(stopRecords(log)).toEqual([
      { level: 'error', fields: { part: 'c', err: 'c threw' }, msg: 'stopping failed' },
      { level: 'error', fields: { part: 'b', err: 'b broke' }, msg: 'stopping failed' },
    ]);
  });

  it('stops what already started, in reverse, when a part fails to start, and names that part', async () => {
    const events: string[] = [];
    const cause = new Error('port taken');
    const failing: PartSpec = {
      name: 'metrics',
      start: () => {
        events.push('start metrics');
        throw cause;
      },
    };
    const error = await startParts([fakePart('a', events), fakePart('b', events), failing, fakePart('never', events)], { log: recordLog() }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PartStartError);
    expect(error).toMatchObject({ part: 'metrics', cause, message: 'port taken' });
    expect(events).toEqual(['start a', 'start b', 'start metrics', 'stop b', 'stop a']);
  });

  it('bounds the stops after a failed start too', async () => {
    const events: string[] = [];
    const log = recordLog();
    const failing: PartSpec = { name: 'c', start: () => Promise.reject(new Error('no')) };
    await expect(startParts([fakePart('a', events), fakePart('b', events, 'hang'), failing], { log, stopWithinMs: 20 })).rejects.toMatchObject({ part: 'c' });
    expect(events).toEqual(['start a', 'start b', 'stop b', 'stop a']);
    expect(stopRecords(log).map((r) => r.msg)).toEqual(['b did not stop within 0.02s; going on']);
  });

  it("records each started part's start time, in start order, and none for a part that failed", async () => {
    const log = recordLog();
    const failing: PartSpec = { name: 'c', start: () => Promise.reject(new Error('no')) };
    await startParts([fakePart('a', []), fakePart('b', []), failing], { log }).catch(() => undefined);
    const phases = log.records.filter((r) => r.msg === 'start phase');
    expect(phases.map((r) => r.fields)).toEqual([
      { phase: 'a', ms: expect.any(Number) },
      { phase: 'b', ms: expect.any(Number) },
    ]);
  });

  it('stops once however often stop is called', async () => {
    const events: string[] = [];
    const running = await startParts([fakePart('a', events)], { log: recordLog() });
    await Promise.all([running.stop(), running.stop()]);
    await running.stop();
    expect(events.filter((e) => e.startsWith('stop'))).toEqual(['stop a']);
  });
});

/** A part whose start waits until `release` is called; records when it starts and when it is started. */
function heldPart(name: string, events: string[]): PartSpec & { release(err?: Error): void } {
  let release: (err?: Error) => void = () => {};
  const held = new Promise<void>((resolve, reject) => (release = (err) => (err ? reject(err) : resolve())));
  return {
    name,
    release: (err) => release(err),
    start: async () => {
      events.push(`start ${name}`);
      await held;
      events.push(`started ${name}`);
      return { stop: () => void events.push(`stop ${name}`) };
    },
  };
}

describe('startTogether', () => {
  it('starts every part before any has finished starting, and stops them in reverse of their listing', async () => {
    const events: string[] = [];
    const [a, b, c] = [heldPart('a', events), heldPart('b', events), heldPart('c', events)];
    const starting = startTogether([a, b, c], { log: recordLog() });
    await Promise.resolve();
    expect(events).toEqual(['start a', 'start b', 'start c']);
    c.release();
    a.release();
    b.release();
    const running = await starting;
    expect(running.names).toEqual(['a', 'b', 'c']);
    await running.stop();
    expect(events.slice(3)).toEqual(['started c', 'started a', 'started b', 'stop c', 'stop b', 'stop a']);
  });

  it('waits for the parts still starting when one fails, stops the ones that started, and names the failed one', async () => {
    const events: string[] = [];
    const [a, slow, failing] = [heldPart('a', events), heldPart('slow', events), heldPart('failing', events)];
    const starting = startTogether([a, slow, failing], { log: recordLog() }).catch((err: unknown) => err);
    a.release();
    failing.release(new Error('no worker'));
    await new Promise((r) => setTimeout(r, 10));
    expect(events).not.toContain('stop a');
    slow.release();
    const error = await starting;
    expect(error).toBeInstanceOf(PartStartError);
    expect(error).toMatchObject({ part: 'failing', message: 'no worker' });
    expect(events.slice(3)).toEqual(['started a', 'started slow', 'stop slow', 'stop a']);
  });

  it('times each part with the timer it is given', async () => {
    const timed: string[] = [];
    const timePhase: TimePhase = async (phase, step) => {
      timed.push(phase);
      return step();
    };
    const log = recordLog();
    await startTogether([fakePart('a', []), fakePart('b', [])], { log, timePhase });
    expect(timed).toEqual(['a', 'b']);
    expect(log.records).toEqual([]);
  });
});

describe('Later', () => {
  it('hands back what a part set, and says the parts are out of order when read before', () => {
    const connection = new Later<string>('the Temporal connection');
    expect(() => connection.get()).toThrow(new PartOrderError('the Temporal connection'));
    expect(() => connection.get()).toThrow('the Temporal connection was used before the part that starts it ran');
    connection.set('open');
    expect(connection.get()).toBe('open');
  });
});

describe('listed', () => {
  it('keeps the parts a description asks for, in order', () => {
    expect(listed([fakePart('a', []), false, fakePart('c', [])]).map((p) => p.name)).toEqual(['a', 'c']);
  });
});
