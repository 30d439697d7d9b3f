// While the product stops, calls still in flight on the Temporal connection (a poll, a signal, an eager
// start) fail once the connection closes, some of them as rejections nobody awaits any more: with the
// Temporal server down that ended the run with an uncaught "Channel has been shut down". From the
// moment stopping starts such errors are expected: they are said in one line, not thrown.
import { messageOf } from '../../contract/failure-types.ts';

// "… already closed": the Temporal bridge's answer to a call on a native client or connection closed
// meanwhile (its IllegalStateAlreadyClosed, e.g. "Client already closed").
const EXPECTED = [/channel has been shut down/i, /connection (is )?closed/i, /client (has been )?closed/i, /\balready closed\b/i, /\bcancelled\b/i, /shutdown/i];

export function isShutdownNoise(err: unknown): boolean {
  const message = messageOf(err);
  return EXPECTED.some((re) => re.test(message));
}

let installed = false;

/** From now on, errors no one handles are logged (expected ones once), never fatal: the stop must finish. */
export function swallowShutdownNoise(log: (line: string) => void): void {
  if (installed) return;
  installed = true;
  let saidExpected = false;
  const handle = (err: unknown) => {
    if (isShutdownNoise(err)) {
      if (!saidExpected) log(`(expected while stopping: ${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
      saidExpected = true;
      return;
    }
    log(`error while stopping (going on): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  };
  process.on('unhandledRejection', handle);
  process.on('uncaughtException', handle);
}
