// Running one build step: its output goes to a log file, a progress line every 30 s shows that a long
// build is alive, and a failure names the step (the caller shows the end of the log).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class StepError extends Error {
  constructor(
    readonly step: string,
    readonly logFile: string,
  ) {
    super(`step "${step}" failed`);
  }
}

const started = Date.now();
export const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)}s`;
const toStdout = (line: string) => void process.stdout.write(`${line}\n`);
let output: (line: string) => void = toStdout;
export const say = (line: string) => output(`[tools +${elapsed(started)}] ${line}`);

/** Sends the progress lines to `log` while `work` runs (the dev command's own output), then to stdout again. */
export async function withOutput<T>(log: ((line: string) => void) | undefined, work: () => Promise<T>): Promise<T> {
  if (!log) return work();
  output = log;
  try {
    return await work();
  } finally {
    output = toStdout;
  }
}

export async function run(step: string, cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; logFile: string }): Promise<string> {
  say(`${step} ...`);
  const t0 = Date.now();
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  log.write(`\n$ ${cmd} ${args.join(' ')}\n`);
  let stdout = '';
  const code = await new Promise<number>((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const ticker = setInterval(() => say(`  still running: ${step} (${elapsed(t0)})`), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      log.write(d);
    });
    child.stderr.on('data', (d: Buffer) => log.write(d));
    child.on('error', (err) => {
      log.write(`${String(err)}\n`);
      clearInterval(ticker);
      resolve(127);
    });
    child.on('close', (c) => {
      clearInterval(ticker);
      resolve(c ?? 1);
    });
  });
  await new Promise((r) => log.end(r));
  if (code !== 0) throw new StepError(step, opts.logFile);
  say(`${step} done in ${elapsed(t0)}`);
  return stdout;
}

export const goEnv = { CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };

/**
 * `go install` of main packages of one module version into `<work>/bin`, which it returns. Only for a
 * module whose go.mod has no replace directive: `go install` refuses those (then see freshModule).
 */
export async function goInstall(step: string, packages: string[], ldflags: string, work: string, logFile: string): Promise<string> {
  const gobin = join(work, 'bin');
  mkdirSync(gobin, { recursive: true });
  await run(step, 'go', ['install', '-trimpath', '-ldflags', ldflags, ...packages], { cwd: work, env: { ...goEnv, GOBIN: gobin, GOFLAGS: '' }, logFile });
  return gobin;
}

/** An empty Go module to build a program in when `go install` cannot (its go.mod has replace directives). */
export function freshModule(dir: string, name: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'go.mod'), `module local.invalid/${name}\n\ngo 1.24\n`);
}

/** What `go mod download -json` says about a module version. */
export interface GoModuleInfo {
  Path: string;
  Version: string;
  /** The unpacked module (read-only files) in GOMODCACHE. */
  Dir: string;
  GoMod: string;
}

export async function downloadModule(module: string, version: string, work: string, logFile: string): Promise<GoModuleInfo> {
  const out = await run(`go mod download ${module}@v${version}`, 'go', ['mod', 'download', '-json', `${module}@v${version}`], { cwd: work, env: goEnv, logFile });
  return JSON.parse(out) as GoModuleInfo;
}

export function tail(file: string, lines = 30): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}
