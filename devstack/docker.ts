import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pidExists, startProcess, stopProcess, waitUntil, type ManagedProcess } from './process.ts';
import { executable, onSearchPath, searchPath } from './executables.ts';
import { runBounded, type RunOptions } from './run-bounded.ts';
import { pruneEngine } from './docker-prune.ts';

// A private Docker engine for the project's own tests (the image, compose, the Kybernate node container):
// Debian's docker.io (installed by scripts/setup.mjs), its dockerd run as root with everything of its own —
// the data root in the tool cache (so images built once, the base images above all, persist between
// runs), the exec root and the API socket under the temporary folder — so it never meets a system Docker.
// No bridge network and no iptables rules: every container here runs on the host's network (or none),
// which needs neither, and nothing is changed on the machine's firewall.

export const DOCKERD_ENV = 'KUBEAIRUNWAY_DOCKERD';
const DEBIAN_DOCKERD = '/usr/sbin/dockerd';
/** docker.io's client, the daemon's own release (a newer client on PATH may want a newer API). */
const DEBIAN_DOCKER = '/usr/bin/docker';

function dockerdBinary(): string {
  return process.env[DOCKERD_ENV] || DEBIAN_DOCKERD;
}

/** The client beside the daemon, else Debian's, else the first on PATH. */
export function dockerClient(): string | undefined {
  return [join(dockerdBinary(), '..', 'docker'), DEBIAN_DOCKER].find(executable) ?? onSearchPath('docker');
}

/** Where the engine keeps images between runs: beside the local stack's built tools. */
export function dockerCacheDir(): string {
  if (process.env.KUBEAIRUNWAY_DOCKER_CACHE) return process.env.KUBEAIRUNWAY_DOCKER_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'kubeairunway', 'docker');
}

/**
 * Why no private Docker engine can run here, or undefined when one can: dockerd needs root, and the
 * binaries come from setup (as root). For a test's skipIf, which then says why.
 */
export function dockerUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'a private dockerd runs only as root (run the tests as root)';
  const bin = dockerdBinary();
  if (!executable(bin)) return `no dockerd at ${bin}: run \`node scripts/setup.mjs\` as root (it installs Debian's docker.io), or set ${DOCKERD_ENV}`;
  if (!dockerClient()) return `no docker client beside ${bin} or on PATH: run \`node scripts/setup.mjs\` as root`;
  for (const tool of ['containerd', 'runc']) if (!onSearchPath(tool)) return `no ${tool} on PATH (dockerd runs its containers with it): run \`node scripts/setup.mjs\` as root`;
  return undefined;
}

export type DockerRunOptions = RunOptions;

export interface DockerEngine {
  /** DOCKER_HOST for clients: `unix://<socket>`. */
  host: string;
  socket: string;
  /** The docker client that fits the daemon. */
  client: string;
  /** Whether this process started the daemon (and so stops it); false when it joined one already up. */
  owned: boolean;
  /** Runs the docker client against this engine; resolves with its output, rejects (with the output's tail) on a non-zero exit or the timeout. */
  run(args: string[], opts?: DockerRunOptions): Promise<string>;
  stop(): Promise<void>;
}

/** Runs `docker <args>` on `host`, bounded; output is collected (and passed line by line to onLine). */
export function runDocker(client: string, host: string, args: string[], opts: DockerRunOptions = {}): Promise<string> {
  // DOCKER_BUILDKIT=0: the classic builder, which needs no frontend image from a registry (the
  // Dockerfile's `# syntax=` line would make BuildKit pull one).
  const env = { DOCKER_HOST: host, DOCKER_BUILDKIT: '0', DOCKER_CLI_HINTS: 'false', ...opts.env };
  return runBounded(client, args, `docker ${args.slice(0, 3).join(' ')} …`, { ...opts, env, timeoutMs: opts.timeoutMs ?? 120_000 });
}

/** Paths of the one private engine per data root. The socket path stays short (unix sockets allow 107 bytes). */
function enginePaths(dataRoot: string) {
  const uid = process.getuid?.() ?? 0;
  const runDir = join(tmpdir(), `kubeairunway-docker-${uid}`);
  return {
    dataRoot,
    runDir,
    execRoot: join(runDir, 'exec'),
    socket: join(runDir, 'docker.sock'),
    pidFile: join(runDir, 'dockerd.pid'),
    /** The process that started the daemon: while it lives, others join; once it is gone, the next one restarts it. */
    ownerFile: join(runDir, 'owner.pid'),
    logFile: join(dockerCacheDir(), 'dockerd.log'),
  };
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

function ownerAlive(ownerFile: string): boolean {
  try {
    const owner = Number(readFileSync(ownerFile, 'utf8').trim());
    return Number.isInteger(owner) && owner > 0 && pidExists(owner);
  } catch {
    return false;
  }
}

/** The dockerd recorded in the pid file, if it still runs on our data root. */
function recordedDaemon(paths: ReturnType<typeof enginePaths>): number | undefined {
  if (!existsSync(paths.pidFile)) return undefined;
  const pid = Number(readFileSync(paths.pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || !pidExists(pid)) return undefined;
  return commandOf(pid).includes(paths.dataRoot) ? pid : undefined;
}

async function answers(client: string, host: string): Promise<boolean> {
  try {
    await runDocker(client, host, ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 10_000 });
    return true;
  } catch {
    return false;
  }
}

async function killAndWait(pid: number, graceMs: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (pidExists(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (pidExists(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Starts the private engine, or joins the one already serving its socket while the process that started
 * it still runs (one data root takes one daemon). A daemon whose owner is gone (killed before it could
 * stop it) or that no longer answers is stopped first, with its containers. Ready when the API answers
 * (bounded).
 */
export async function startDocker(opts: { log?: (line: string) => void; readyTimeoutMs?: number } = {}): Promise<DockerEngine> {
  const unavailable = dockerUnavailable();
  if (unavailable) throw new Error(unavailable);
  const client = dockerClient()!;
  const paths = enginePaths(join(dockerCacheDir(), 'data'));
  const host = `unix://${paths.socket}`;
  const run = (args: string[], o?: DockerRunOptions) => runDocker(client, host, args, o);
  const existing = recordedDaemon(paths);
  if (existing !== undefined) {
    if (ownerAlive(paths.ownerFile) && (await answers(client, host))) {
      opts.log?.(`docker: joining the private dockerd already running (pid ${existing}, ${host})`);
      return { host, socket: paths.socket, client, owned: false, run, stop: async () => undefined };
    }
    // Its owner was killed before it could stop it (or it hangs): stopping it stops its containers too.
    opts.log?.(`docker: stopping pid ${existing}, a private dockerd left by a run that ended without stopping it (or not answering)`);
    await killAndWait(existing, 10_000);
  }
  releaseDefaultNetns(paths.execRoot);
  mkdirSync(paths.dataRoot, { recursive: true });
  mkdirSync(paths.execRoot, { recursive: true });
  rmSync(paths.socket, { force: true });
  rmSync(paths.pidFile, { force: true });
  const t0 = Date.now();
  const proc: ManagedProcess = startProcess(
    'dockerd',
    dockerdBinary(),
    [
      `--data-root=${paths.dataRoot}`,
      `--exec-root=${paths.execRoot}`,
      `--host=${host}`,
      `--pidfile=${paths.pidFile}`,
      // Host network only: no docker0 bridge, no NAT rules in the machine's firewall.
      '--bridge=none',
      '--iptables=false',
      '--ip-masq=false',
    ],
    paths.logFile,
    { PATH: searchPath() },
  );
  await waitUntil(proc, 'answering on its socket', opts.readyTimeoutMs ?? 60_000, () => answers(client, host));
  // The pid file is dockerd's own; ours holds the same id, written for a later run to find the daemon.
  writeFileSync(paths.pidFile, String(proc.pid));
  writeFileSync(paths.ownerFile, String(process.pid));
  opts.log?.(`docker: private dockerd (pid ${proc.pid}) up in ${((Date.now() - t0) / 1000).toFixed(1)}s on ${host}, data in ${paths.dataRoot}`);
  // Each start of the engine drops what no tag reaches and the images of replaced recipes (the data root
  // grew to about 3.5 GB without it); the tagged images the runs reuse stay (devstack/docker-prune.ts).
  await pruneEngine(run, new Date(t0), opts.log);
  return {
    host,
    socket: paths.socket,
    client,
    owned: true,
    run,
    // SIGTERM lets dockerd stop its containers (10 s each by default) and its containerd; bounded.
    stop: async () => {
      await stopProcess(proc, 30_000);
      releaseDefaultNetns(paths.execRoot);
      rmSync(paths.pidFile, { force: true });
      rmSync(paths.ownerFile, { force: true });
    },
  };
}

/**
 * dockerd binds its default network namespace at `<exec root>/netns/default` and leaves that mount in the
 * host's table when it stops (and when it is killed): unmounted at every stop, and before every start.
 */
export function releaseDefaultNetns(execRoot: string): void {
  const path = join(execRoot, 'netns', 'default');
  const mounted = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((line) => line.split(' ')[4] === path);
  if (mounted) spawnSync('umount', [path], { stdio: 'ignore', timeout: 10_000 });
}

/** Whether `image` (a tag) is present in the engine. */
export async function hasImage(engine: DockerEngine, image: string): Promise<boolean> {
  try {
    await engine.run(['image', 'inspect', '--format', '{{.Id}}', image], { timeoutMs: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** Size in bytes of a present image, as the engine reports it. */
export async function imageSize(engine: DockerEngine, image: string): Promise<number> {
  return Number((await engine.run(['image', 'inspect', '--format', '{{.Size}}', image], { timeoutMs: 30_000 })).trim());
}

/** `docker version`'s server version, for progress lines. */
export function serverVersion(engine: DockerEngine): Promise<string> {
  return engine.run(['version', '--format', '{{.Server.Version}}']).then((v) => v.trim());
}
