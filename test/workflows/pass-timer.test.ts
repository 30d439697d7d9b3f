// The timer between passes (workflows/engine/pass-timer.ts): one timer bounds the waits until it
// fires, so signal-driven passes start and cancel none; a shorter bound (a backoff) replaces it, and a
// resync still comes when nothing else does.
import type { temporal } from '@temporalio/proto';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { reconcileSignal } from '../../workflows/engine/definitions.ts';
import { FakeDeployment, stubEnvironment } from './model-deployment-stubs.ts';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const started = (events: HistoryEvent[]) => events.filter((e) => e.timerStartedEventAttributes);
const canceled = (events: HistoryEvent[]) => events.filter((e) => e.timerCanceledEventAttributes);
const fired = (events: HistoryEvent[]) => events.filter((e) => e.timerFiredEventAttributes);

describe('the timer between passes', () => {
  const { start } = stubEnvironment();

  /** Three signal-driven passes after the first; the history they leave. */
  async function signalledPasses() {
    const fake = new FakeDeployment();
    const { handle, viewWhere } = await start(fake);
    await viewWhere('settled', (v) => v.step === 'idle' && v.passes === 1);
    for (let i = 2; i <= 4; i++) {
      await handle.signal(reconcileSignal, { reason: `look ${i}` });
      await viewWhere(`pass ${i}`, (v) => v.passes === i);
    }
    return { fake, events: (await handle.fetchHistory()).events ?? [] };
  }

  it('stays armed across signal-driven passes: one timer started, none canceled', async () => {
    const { fake, events } = await signalledPasses();
    expect(fake.assessed.length).toBe(4);
    expect(started(events)).toHaveLength(1);
    expect(canceled(events)).toEqual([]);
  });

  it('a backoff replaces the pending resync, and its firing brings the retry', async () => {
    const fake = new FakeDeployment();
    const { handle, viewWhere } = await start(fake);
    await viewWhere('settled', (v) => v.step === 'idle' && v.passes === 1);
    let failing = true;
    fake.beforeAssess = () => {
      if (failing) throw ApplicationFailure.create({ type: 'KubeUnavailable', message: 'connection refused', nonRetryable: true });
    };
    await handle.signal(reconcileSignal, { reason: 'look again' });
    await viewWhere('failed', (v) => v.lastError !== undefined);
    failing = false;
    // No signal from here on: only the backoff's timer can bring the next pass.
    const recovered = await viewWhere('recovered', (v) => v.lastError === undefined && v.step === 'idle');
    expect(recovered.passes).toBeGreaterThanOrEqual(3);
    const events = (await handle.fetchHistory()).events ?? [];
    // The resync (1 min) canceled for the backoff (1 s), which fired; the resync armed again after it.
    expect(canceled(events)).toHaveLength(1);
    expect(fired(events).length).toBeGreaterThanOrEqual(1);
    expect(started(events)).toHaveLength(2 + fired(events).length);
  });

  it('a resync comes when no signal does, and each one arms the next', async () => {
    const fake = new FakeDeployment();
    const { handle, viewWhere } = await start(fake, { settings: { resyncPeriod: '1s' } });
    await viewWhere('two resyncs', (v) => v.passes >= 3);
    const events = (await handle.fetchHistory()).events ?? [];
    expect(fired(events).length).toBeGreaterThanOrEqual(2);
    expect(canceled(events)).toEqual([]);
    expect(fake.assessed.length).toBeGreaterThanOrEqual(3);
  });
});
