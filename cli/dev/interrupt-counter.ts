// Counts a person's Ctrl-C presses, not the signals they cause. One Ctrl-C in a terminal sends SIGINT to
// every process of the foreground group, and a wrapper in that group (tsx, npm) relays it to its child
// once more, so `npm run dev` sees two SIGINTs for one press. Signals that arrive within DUPLICATE_WINDOW_MS
// of the press that counted are that same press.

/**
 * 400 ms: a wrapper's relay comes a few milliseconds after the terminal's signal (the wrapper only calls
 * kill() when it sees it), and even a busy event loop here runs both handlers in the same turn, so a
 * window of a few hundred milliseconds holds every duplicate with a wide margin. A person's deliberate
 * presses, on the other hand, are rarely closer than that. Erring long is the safe side: a press taken
 * for a duplicate costs one more press (and the message says so), a duplicate taken for a press kills
 * everything the user only wanted stopped.
 */
export const DUPLICATE_WINDOW_MS = 400;

/** Presses it takes to kill everything at once: the first stops cleanly, the next ones confirm. */
export const PRESSES_TO_FORCE = 3;

export type Interrupt =
  /** The first press: stop cleanly. */
  | { kind: 'stop' }
  /** A later press, not yet enough to force; `remaining` more presses force. */
  | { kind: 'repeat'; remaining: number }
  /** The same press again (a relayed copy): nothing to do. */
  | { kind: 'duplicate' }
  /** Enough presses: kill everything at once. */
  | { kind: 'force' };

export class InterruptCounter {
  private presses = 0;
  private lastPressAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly windowMs = DUPLICATE_WINDOW_MS,
    private readonly pressesToForce = PRESSES_TO_FORCE,
  ) {}

  /** One signal at `nowMs`; the window counts from the press that counted, so a stream of copies cannot stretch it. */
  signal(nowMs: number): Interrupt {
    if (this.presses > 0 && nowMs - this.lastPressAt < this.windowMs) return { kind: 'duplicate' };
    this.presses++;
    this.lastPressAt = nowMs;
    if (this.presses === 1) return { kind: 'stop' };
    if (this.presses >= this.pressesToForce) return { kind: 'force' };
    return { kind: 'repeat', remaining: this.pressesToForce - this.presses };
  }
}

/** What a repeated press says: exactly the presses that force. */
export function repeatMessage(remaining: number): string {
  const times = remaining === 1 ? 'once more' : remaining === 2 ? 'twice more' : `${remaining} more times`;
  return `still stopping; press Ctrl-C ${times} to kill everything at once`;
}
