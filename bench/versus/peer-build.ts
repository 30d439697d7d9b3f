// Builds the Go reference peer (../shared/peers/airunway-b0d3fb7.tar.gz, see its README) into a cache
// outside the repository, once: its manager and its three provider binaries. Its own modules are not
// on the module proxy, so it is built from the extracted source; dependencies come from the proxy.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const PEER = 'airunway-b0d3fb7';
export const PEER_PROVIDERS = ['dynamo', 'kaito', 'kuberay'] as const;

export interface PeerBuild {
  manager: string;
  providers: Record<(typeof PEER_PROVIDERS)[number], string>;
  /** The peer's own CRDs (airunway.ai ModelDeployment and InferenceProviderConfig). */
  crdFiles: string[];
}

export type PeerResult = { ok: true; build: PeerBuild } | { ok: false; reason: string };

export function peerCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'kubeairunway', 'peers', PEER);
}

function peerTarball(repoRoot: string): string {
  return process.env.KUBEAIRUNWAY_PEER_TARBALL ?? resolve(repoRoot, '..', 'shared', 'peers', `${PEER}.tar.gz`);
}

function goVersion(): string | undefined {
  try {
    return execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** `go build` with its output in the log; a line every 30 s so a cold build (minutes) looks alive. */
function goBuild(what: string, cwd: string, output: string, logFile: string, say: (line: string) => void): Promise<void> {
  const t0 = Date.now();
  say(`building ${what} ...`);
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`\n$ (cd ${cwd} && go build -o ${output}.partial ./cmd/main.go)\n`);
  return new Promise((done, fail) => {
    const child = spawn('go', ['build', '-o', `${output}.partial`, './cmd/main.go'], {
      cwd,
      env: { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false', CGO_ENABLED: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ticker = setInterval(() => say(`  still building ${what} (${Math.round((Date.now() - t0) / 1000)} s)`), 30_000);
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const finish = (err: Error | undefined) => {
      clearInterval(ticker);
      log.end();
      if (err) return fail(err);
      // Renamed only when complete, so an interrupted build never leaves a binary that looks finished.
      renameSync(`${output}.partial`, output);
      say(`built ${what} in ${Math.round((Date.now() - t0) / 1000)} s`);
      done();
    };
    child.on('error', (err) => finish(err));
    child.on('close', (code) => finish(code === 0 ? undefined : new Error(`go build of ${what} failed (exit ${code}); see ${logFile}`)));
  });
}

/** The peer's binaries, built when missing; a reason instead when Go or the peer is not available. */
export async function ensurePeerBuilt(repoRoot: string, log: (line: string) => void): Promise<PeerResult> {
  const dir = peerCacheDir();
  const src = join(dir, 'src');
  const bin = join(dir, 'bin');
  const build: PeerBuild = {
    manager: join(bin, 'manager'),
    providers: { dynamo: join(bin, 'dynamo-provider'), kaito: join(bin, 'kaito-provider'), kuberay: join(bin, 'kuberay-provider') },
    crdFiles: [],
  };
  const crdDir = join(src, 'controller', 'config', 'crd', 'bases');
  const withCrds = (): PeerResult => {
    build.crdFiles = readdirSync(crdDir).filter((f) => f.startsWith('airunway.ai_') && f.endsWith('.yaml')).sort().map((f) => join(crdDir, f));
    return { ok: true, build };
  };
  const binaries = [build.manager, ...Object.values(build.providers)];
  if (binaries.every((b) => existsSync(b)) && existsSync(crdDir)) return withCrds();

  const tarball = peerTarball(repoRoot);
  if (!existsSync(tarball)) return { ok: false, reason: `the reference peer ${tarball} is not there (set KUBEAIRUNWAY_PEER_TARBALL)` };
  const go = goVersion();
  if (!go) return { ok: false, reason: 'Go is not installed (needed once, to build the reference peer)' };

  const say = (line: string) => log(`[peer] ${line}`);
  say(`building the reference ${PEER} with ${go} into ${dir} (once; a cold build takes several minutes on 2 cores)`);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  mkdirSync(bin, { recursive: true });
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', src]);
  const logFile = join(dir, 'logs', 'build.log');
  try {
    if (!existsSync(build.manager)) await goBuild('manager', join(src, 'controller'), build.manager, logFile, say);
    for (const p of PEER_PROVIDERS) {
      if (!existsSync(build.providers[p])) await goBuild(`${p} provider`, join(src, 'providers', p), build.providers[p], logFile, say);
    }
  } catch (err) {
    return { ok: false, reason: `${(err as Error).message}` };
  }
  return withCrds();
}
