import { readFileSync } from 'node:fs';

// When runc's checkpoint or restore fails, containerd's shim answers with runc's last error and the path
// of CRIU's log (`... path= <bundle>/criu-dump.log: ...` for a dump, `log file: <bundle>/work/restore.log`
// for a restore); the log says why. The node worker runs where that path is (beside containerd), so it
// can quote the log's error lines in the failure it reports.

/** The log path in a shim's checkpoint or restore failure message, if it names one. */
export function criuLogPath(message: string): string | undefined {
  return /(?:path=|log file:) (\/\S+?\.log)\b/.exec(message)?.[1];
}

/** CRIU's error lines (`Error (file:line): ...`) from a log, the last `max` of them. */
export function criuErrorLines(log: string, max = 12): string[] {
  return log
    .split('\n')
    .filter((l) => /\bError \(|^Error|\(\d+\.\d+\) Error/.test(l))
    .map((l) => l.trim())
    .slice(-max);
}

/** What a failure carries as its CRIU log: the log's error lines when it can be read, else the message. */
export function criuLogExcerpt(message: string, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): string {
  const path = criuLogPath(message);
  if (!path) return message;
  let lines: string[];
  try {
    lines = criuErrorLines(read(path));
  } catch {
    return message;
  }
  return lines.length > 0 ? lines.join('\n') : message;
}
