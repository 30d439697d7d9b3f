import { spawn } from 'node:child_process';

// One command run to completion for the image builds (the docker client, debootstrap, chroot, mount):
// output collected, every wait bounded, the output's tail in the error a user reads.

export interface RunOptions {
  /** Written to the command's standard input (e.g. a tar stream for `docker import -`). */
  input?: NodeJS.ReadableStream;
  /** Each line of output as it comes (a build's steps), for progress lines. */
  onLine?: (line: string) => void;
  timeoutMs?: number;
  /** Added to (and over) this process's environment. */
  env?: NodeJS.ProcessEnv;
}

const tail = (out: string) => out.trimEnd().split('\n').slice(-20).join('\n');

/**
 * Runs `cmd args`; resolves with its output (stdout and stderr as they came) on exit 0, rejects naming
 * `label` with the output's last 20 lines otherwise. At the timeout the command is killed and the promise
 * rejects at once: a killed command's children may hold its pipes open, so its close is not waited for.
 */
export function runBounded(cmd: string, args: readonly string[], label: string, opts: RunOptions & { timeoutMs: number }): Promise<string> {
  const { timeoutMs } = opts;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...opts.env }, stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let out = '';
    let partial = '';
    const collect = (chunk: Buffer) => {
      const text = chunk.toString();
      out += text;
      if (!opts.onLine) return;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) opts.onLine(line);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    if (opts.input && child.stdin) {
      opts.input.pipe(child.stdin);
      child.stdin.on('error', () => undefined);
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not finish within ${timeoutMs / 1000}s. Last output:\n${tail(out)}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${label} failed (${signal ?? `exit ${code}`}):\n${tail(out)}`));
    });
  });
}
