import { CancellationScope, condition, sleep } from '@temporalio/workflow';

/**
 * The timer that bounds the wait between passes (a resync, a poll or a backoff), kept across passes.
 *
 * A fresh timer per wait costs two history events (started, then canceled when a signal wins) and
 * a timer task on the server for every signal-driven pass, which is most of them. This one stays
 * armed while signals come and go: a wait reuses it when it fires no later than the wait asks, so a
 * deployment reporting its status ten times still has one timer pending. A resync may thereby come
 * sooner than a full period after the last pass; a pass is level-triggered, so an early one is
 * harmless. Only a shorter bound (a backoff or a poll) replaces it.
 */
export class PassTimer {
  private pending: { firesAt: number; scope: CancellationScope } | undefined;
  private fired = false;

  /**
   * Waits until `woken()` holds or the timer fires, arming it for at most `ms` from now. Returns
   * whether the timer ended the wait. A firing during the pass before is served by that pass.
   */
  async wait(ms: number, woken: () => boolean): Promise<boolean> {
    this.arm(ms);
    await condition(() => woken() || this.fired);
    if (woken()) return false;
    this.fired = false;
    return true;
  }

  private arm(ms: number): void {
    this.fired = false;
    const firesAt = Date.now() + ms;
    if (this.pending && this.pending.firesAt <= firesAt) return;
    this.pending?.scope.cancel();
    const scope = new CancellationScope();
    const entry = { firesAt, scope };
    this.pending = entry;
    scope.run(() => sleep(ms)).then(
      () => {
        if (this.pending !== entry) return;
        this.pending = undefined;
        this.fired = true;
      },
      // Canceled because a shorter bound replaced it.
      () => {},
    );
  }
}
