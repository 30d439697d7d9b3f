import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { ContainerdClient } from '../containerd/client.ts';
import { pidExists, startProcess, stopProcess, waitUntil, type ManagedProcess } from './process.ts';
import { executable, onSearchPath, searchPath } from './executables.ts';

// A real containerd for the containerd client's tests (and the Kybernate node worker's): Debian's
// containerd and runc (installed by scripts/setup.mjs), run as root with a config of our own, its socket,
// content, snapshots and state all under one state folder, so it never meets a system containerd. No CRI
// plugin: nothing here is kubelet. CRIU (for checkpoints) is whatever `criu` the shim finds on PATH.

export const CONTAINERD_ENV = 'KUBEAIRUNWAY_CONTAINERD';
const DEBIAN_CONTAINERD = '/usr/bin/containerd';
/** The tiny image's one binary; busybox-static's, which needs no libraries in the root file system. */
export const BUSYBOX = '/bin/busybox';

/** Whether an ELF binary is statically linked (has no program interpreter). */
export function isStaticElf(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(64);
    readSync(fd, header, 0, 64, 0);
    if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2) return false; // 64-bit ELF only
    const phoff = Number(header.readBigUInt64LE(32));
    const phentsize = header.readUInt16LE(54);
    const phnum = header.readUInt16LE(56);
    const table = Buffer.alloc(phentsize * phnum);
    readSync(fd, table, 0, table.length, phoff);
    for (let i = 0; i < phnum; i++) if (table.readUInt32LE(i * phentsize) === 3) return false; // PT_INTERP
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * Why the real containerd cannot run here, or undefined when it can: containers need root, and the
 * binaries come from setup (as root). For a test's skipIf, which then says why.
 */
export function containerdUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'containerd runs containers only as root (run the tests as root)';
  const bin = process.env[CONTAINERD_ENV] || DEBIAN_CONTAINERD;
  if (!executable(bin)) return `no containerd at ${bin}: run \`node scripts/setup.mjs\` as root, or set ${CONTAINERD_ENV}`;
  if (!onSearchPath('runc')) return 'no runc on PATH: run `node scripts/setup.mjs` as root';
  if (!executable(BUSYBOX) || !isStaticElf(BUSYBOX)) return `no static busybox at ${BUSYBOX} (Debian's busybox-static): run \`node scripts/setup.mjs\` as root`;
  return undefined;
}

export interface Containerd {
  process: ManagedProcess;
  /** The gRPC socket. */
  socket: string;
  /** runc's state folder for containers made here (ContainerOptions.runtime.runcRoot). */
  runcRoot: string;
  dir: string;
  stop(): Promise<void>;
}

/** containerd's config: everything under `dir` (its state too, unless `state` names another folder), no CRI, no snapshotters that cannot work here. */
export function containerdConfig(dir: string, state = join(dir, 'state')): string {
  const q = (s: string) => JSON.stringify(s);
  return [
    '# Written by the local stack (devstack/containerd.ts) at every start.',
    'version = 2',
    `root = ${q(join(dir, 'root'))}`,
    `state = ${q(state)}`,
    'disabled_plugins = ["io.containerd.grpc.v1.cri", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs", "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]',
    '',
    '[grpc]',
    `  address = ${q(join(dir, 'containerd.sock'))}`,
    '',
    '[ttrpc]',
    `  address = ${q(join(dir, 'containerd.sock.ttrpc'))}`,
    '',
    '[debug]',
    `  address = ${q(join(dir, 'debug.sock'))}`,
    '',
    '[metrics]',
    '  address = ""',
    '',
    '[plugins."io.containerd.internal.v1.opt"]',
    `  path = ${q(join(dir, 'opt'))}`,
    '',
  ].join('\n');
}

/** Processes whose command line names `text` (shims name their containerd's socket). */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids.filter((p) => p !== process.pid);
}

function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** The id of the process that started the containerd in a state folder, for reapOrphanContainerds. */
const OWNER_FILE = 'owner.pid';

/**
 * Starts containerd with its state in `<stateDir>/containerd`, ready when its Version service answers.
 * A containerd left running on the same folder (its owner was SIGKILLed) is killed first; its shims are
 * not: the new containerd takes their tasks over, so `stop()` can remove them. `stop()` removes every
 * container and task (in every namespace), then stops containerd and any shim still up, each step bounded.
 */
export async function startContainerd(stateDir: string, opts: { log?: (line: string) => void } = {}): Promise<Containerd> {
  const unavailable = containerdUnavailable();
  if (unavailable) throw new Error(unavailable);
  const bin = process.env[CONTAINERD_ENV] || DEBIAN_CONTAINERD;
  const dir = join(stateDir, 'containerd');
  mkdirSync(dir, { recursive: true });
  const socket = join(dir, 'containerd.sock');
  const config = join(dir, 'config.toml');
  const earlier = processesNaming(config);
  killAll(earlier);
  for (const deadline = Date.now() + 5_000; earlier.some(pidExists) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
  rmSync(socket, { force: true });
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  writeFileSync(config, containerdConfig(dir));
  const runcRoot = join(dir, 'runc');
  mkdirSync(runcRoot, { recursive: true });
  const proc = startProcess('containerd', bin, ['--config', config, '--log-level', 'info'], join(stateDir, 'containerd.log'), { PATH: searchPath() });
  const probe = new ContainerdClient({ socket, namespace: 'default', timeoutMs: 2_000 });
  try {
    await waitUntil(proc, 'answering on its socket', 30_000, async () => Boolean((await probe.version()).version));
  } finally {
    probe.close();
  }
  const stop = async () => {
    await removeAllContainers(socket, 15_000, opts.log).catch((err: Error) => opts.log?.(`containerd cleanup: ${err.message}`));
    await stopProcess(proc, 10_000);
    // Shims outlive their containerd by design; ours have nothing left to serve.
    killAll(processesNaming(socket));
  };
  return { process: proc, socket, runcRoot, dir, stop };
}

/**
 * Cleans up after test runs that were killed before they could stop their containerd: for each state
 * folder below `parent` whose owner is gone, a containerd is started on it (taking over the tasks its
 * shims still run), stopped (which removes them), and the folder removed. The number reaped.
 */
export async function reapOrphanContainerds(parent: string, log?: (line: string) => void): Promise<number> {
  if (!existsSync(parent)) return 0;
  let reaped = 0;
  for (const entry of readdirSync(parent)) {
    const stateDir = join(parent, entry);
    let owner: number;
    try {
      owner = Number(readFileSync(join(stateDir, 'containerd', OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (owner === process.pid || pidExists(owner)) continue;
    try {
      await (await startContainerd(stateDir, { log })).stop();
    } catch (err) {
      log?.(`reaping ${stateDir}: ${(err as Error).message}`);
    }
    rmSync(stateDir, { recursive: true, force: true });
    reaped++;
  }
  return reaped;
}

/**
 * Removes every task and container in every namespace of the containerd at `socket`, bounded (`budgetMs`
 * in all, 5 s a call): the host containerd's stop here and the Kybernate node's (devstack/kybernate-node.ts).
 */
export async function removeAllContainers(socket: string, budgetMs: number, log?: (line: string) => void): Promise<void> {
  const admin = new ContainerdClient({ socket, namespace: 'default', timeoutMs: 5_000 });
  const deadline = Date.now() + budgetMs;
  try {
    const { namespaces } = await admin.connection.unary<{ namespaces: { name: string }[] }>('namespaces', 'List', {});
    for (const { name } of namespaces) {
      const client = new ContainerdClient({ socket, namespace: name, timeoutMs: 5_000 });
      try {
        const { containers } = await client.connection.unary<{ containers: { id: string }[] }>('containers', 'List', { filters: [] });
        for (const { id } of containers) {
          if (Date.now() > deadline) return;
          await client.removeContainer(id, 5_000).catch((err: Error) => log?.(`removing container ${name}/${id}: ${err.message}`));
        }
      } finally {
        client.close();
      }
    }
  } finally {
    admin.close();
  }
}

/**
 * The tiny image's root file system in `dir`: busybox-static and its applets as links, the usual empty
 * mount points, and a writable /tmp. Runs `sh -c <script>` with busybox's sh.
 */
export function buildBusyboxRootfs(dir: string): string {
  for (const d of ['bin', 'dev', 'proc', 'sys', 'tmp', 'run', 'etc', 'root']) mkdirSync(join(dir, d), { recursive: true });
  chmodSync(join(dir, 'tmp'), 0o1777);
  copyFileSync(BUSYBOX, join(dir, 'bin', 'busybox'));
  chmodSync(join(dir, 'bin', 'busybox'), 0o755);
  for (const applet of ['sh', 'sleep', 'echo', 'cat', 'ls', 'ps', 'true', 'false', 'kill']) {
    rmSync(join(dir, 'bin', applet), { force: true });
    symlinkSync('busybox', join(dir, 'bin', applet));
  }
  writeFileSync(join(dir, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
  writeFileSync(join(dir, 'etc', 'group'), 'root:x:0:\n');
  return dir;
}

export interface CriuStatus {
  works: boolean;
  /** `criu --version`'s version, if there is a criu. */
  version: string | undefined;
  /** Why checkpoints cannot work here (for a skipped test's name), when they cannot. */
  reason: string | undefined;
}

/**
 * Whether CRIU can dump on this machine: `criu check` passes. Debian 12's CRIU 3.17 fails it on recent
 * kernels (it cannot parse their vDSO), so every dump fails there; CRIU 4 passes.
 */
export function criuStatus(): CriuStatus {
  const criu = onSearchPath('criu');
  if (!criu) return { works: false, version: undefined, reason: 'no criu on PATH (Debian\'s criu package; `node scripts/setup.mjs` as root installs it)' };
  const version = /Version:\s*(\S+)/.exec(spawnSync(criu, ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1];
  const check = spawnSync(criu, ['check'], { encoding: 'utf8', timeout: 30_000 });
  if (check.status === 0) return { works: true, version, reason: undefined };
  const lastError = `${check.stdout ?? ''}${check.stderr ?? ''}`.split('\n').filter((l) => /Error/.test(l)).at(0)?.trim() ?? `exit ${check.status}`;
  return { works: false, version, reason: `CRIU ${version ?? '?'} fails \`criu check\` on kernel ${release()}: ${lastError}` };
}

/** A shell loop that writes an increasing count to /tmp/count once a second: state CRIU must keep. */
export const COUNTER_ARGS = ['/bin/sh', '-c', 'i=0; while true; do i=$((i+1)); echo $i > /tmp/count; sleep 1; done'];
