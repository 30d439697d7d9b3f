// Once a command has answered, its process ends. Each client closes its own connections, but a close
// can wait on the other side: a Temporal server frozen by SIGSTOP never acknowledges the goodbye, and
// the open socket kept `kar status` alive for as long as Temporal stayed frozen (10 minutes in one
// report). The exit code is set at once, so a process with nothing left open ends as before; one that
// still holds something after `lingerMs` is ended then.

/**
 * Exits with `code` when nothing is left to run, and at most `lingerMs` from now: longer than `dev`'s own
 * bound after its stop (3 s, cli/dev/run-dev.ts), which names what still held it.
 */
export function exitWhenAnswered(code: number, lingerMs = 4_000): void {
  process.exitCode = code;
  // Unreferenced: the timer itself never keeps the process alive, it only bounds what does.
  setTimeout(() => process.exit(code), lingerMs).unref();
}
