import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withBuildLock } from './build-lock.ts';
import { dockerCacheDir, hasImage, type DockerEngine } from './docker.ts';
import { executable } from './executables.ts';
import { runBounded } from './run-bounded.ts';

// Images for the private Docker engine, made from Debian's packages alone (no registry serves base images
// here): a Debian trixie root file system by debootstrap with trixie's nodejs, imported as the base; the
// rest are built from it with apt-get inside a container. Each is built once and found by its tag later
// (the engine's data root is in the tool cache), so only a first run pays for them.

/** trixie's nodejs (20.19) meets package.json's engines (>= 20.19); bookworm's (18) does not. */
export const DEBIAN_SUITE = 'trixie';
/** Runtime base: trixie minbase + nodejs + ca-certificates. The Dockerfile's NODE_IMAGE. */
export const NODE_BASE_IMAGE = `kubeairunway-local/node:20-${DEBIAN_SUITE}`;
/** Build base: the runtime base + Debian's npm and the host's trusted CAs. The Dockerfile's BUILD_IMAGE. */
export const NODE_BUILD_IMAGE = `kubeairunway-local/node-build:20-${DEBIAN_SUITE}`;
/** A Kybernate node: containerd 1.7, runc and CRIU 4 from trixie (see devstack/kybernate-node.ts). */
export const KYBERNATE_NODE_IMAGE = `kubeairunway-local/kybernate-node:${DEBIAN_SUITE}`;
export const MIN_NODE_VERSION: [number, number] = [20, 19];
export const DEBIAN_MIRROR_ENV = 'KUBEAIRUNWAY_DEBIAN_MIRROR';

type Log = (line: string) => void;

/** Why the base image cannot be made here (debootstrap missing), or undefined. */
export function baseImageUnavailable(): string | undefined {
  const debootstrap = ['/usr/sbin/debootstrap', '/usr/bin/debootstrap'].find(executable);
  if (!debootstrap) return "no debootstrap (Debian's package): run `node scripts/setup.mjs` as root";
  return undefined;
}

/** Runs a command to completion, bounded, with its output's tail in the error. */
function runStep(cmd: string, args: string[], opts: { timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<string> {
  return runBounded(cmd, args, `\`${cmd} ${args.join(' ')}\``, opts);
}

/** "v20.19.2" → whether it is at least MIN_NODE_VERSION. */
export function nodeVersionFits(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > MIN_NODE_VERSION[0] || (major === MIN_NODE_VERSION[0] && minor >= MIN_NODE_VERSION[1]);
}

const seconds = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(0)}s`;

/**
 * The runtime base image, made once: debootstrap a minimal trixie, install nodejs in it (chroot, apt-get),
 * check Node's version against the engines field, drop apt's caches and docs, `docker import` the tree.
 * The downloaded packages stay in the cache (debootstrap --cache-dir) for a rebuild.
 */
export async function ensureNodeBaseImage(engine: DockerEngine, log: Log = () => undefined): Promise<string> {
  return onceInEngine(engine, NODE_BASE_IMAGE, log, () => buildNodeBaseImage(engine, log));
}

/**
 * `tag` as found in the engine, else made by `build` while no other process builds it (a test file beside
 * this one may be building the same image: this one then waits, and finds it).
 */
async function onceInEngine(engine: DockerEngine, tag: string, log: Log, build: () => Promise<unknown>): Promise<string> {
  const cached = async () => {
    if (!(await hasImage(engine, tag))) return false;
    log(`image ${tag}: cached`);
    return true;
  };
  if (await cached()) return tag;
  return withBuildLock(BUILD_LOCKS(), tag, async () => {
    if (!(await cached())) await build();
    return tag;
  }, { log });
}

const BUILD_LOCKS = () => join(dockerCacheDir(), 'build-locks');

async function buildNodeBaseImage(engine: DockerEngine, log: Log): Promise<void> {
  const unavailable = baseImageUnavailable();
  if (unavailable) throw new Error(unavailable);
  const cache = dockerCacheDir();
  const debs = join(cache, 'debs', DEBIAN_SUITE);
  mkdirSync(debs, { recursive: true });
  const rootfs = mkdtempSync(join(cache, 'rootfs-'));
  const mirror = process.env[DEBIAN_MIRROR_ENV] || 'http://deb.debian.org/debian';
  const t0 = Date.now();
  let procMounted = false;
  try {
    log(`image ${NODE_BASE_IMAGE}: first build (a few minutes, once): debootstrap ${DEBIAN_SUITE} from ${mirror} ...`);
    await runStep('debootstrap', ['--variant=minbase', `--cache-dir=${debs}`, DEBIAN_SUITE, rootfs, mirror], { timeoutMs: 20 * 60_000 });
    log(`image ${NODE_BASE_IMAGE}: debootstrap done (${seconds(t0)}); apt-get install nodejs ca-certificates in it ...`);
    await runStep('mount', ['-t', 'proc', 'proc', join(rootfs, 'proc')], { timeoutMs: 10_000 });
    procMounted = true;
    // The tree's own temporary folder: a TMPDIR of this machine's (one not under /tmp) does not exist in
    // the chroot, and ca-certificates' postinst (update-ca-certificates' mktemp) fails there, failing the
    // whole install ("Errors were encountered while processing: ca-certificates"; seen with TMPDIR set).
    const chrootEnv = { DEBIAN_FRONTEND: 'noninteractive', PATH: '/usr/sbin:/usr/bin:/sbin:/bin', TMPDIR: '/tmp', HOME: '/root' };
    await runStep('chroot', [rootfs, 'apt-get', '-q', '-y', '--no-install-recommends', 'install', 'nodejs', 'ca-certificates'], { timeoutMs: 15 * 60_000, env: chrootEnv });
    const version = (await runStep('chroot', [rootfs, 'node', '--version'], { timeoutMs: 30_000, env: chrootEnv })).trim();
    if (!nodeVersionFits(version)) throw new Error(`${DEBIAN_SUITE}'s nodejs is ${version}; kubeairunway needs Node >= ${MIN_NODE_VERSION.join('.')}`);
    await runStep('chroot', [rootfs, 'apt-get', 'clean'], { timeoutMs: 60_000, env: chrootEnv });
    await runStep('umount', [join(rootfs, 'proc')], { timeoutMs: 30_000 });
    procMounted = false;
    for (const dir of ['var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/info']) {
      rmSync(join(rootfs, dir), { recursive: true, force: true });
      mkdirSync(join(rootfs, dir), { recursive: true });
    }
    log(`image ${NODE_BASE_IMAGE}: node ${version} installed (${seconds(t0)}); docker import ...`);
    const tar = spawn('tar', ['-C', rootfs, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await engine.run(
      [
        'import',
        '--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        '--change', `LABEL org.kubeairunway.node-version=${version} org.kubeairunway.debian-suite=${DEBIAN_SUITE}`,
        '--change', 'CMD ["node"]',
        '-', NODE_BASE_IMAGE,
      ],
      { input: tar.stdout, timeoutMs: 10 * 60_000 },
    );
    log(`image ${NODE_BASE_IMAGE}: built in ${seconds(t0)}`);
  } finally {
    if (procMounted) await runStep('umount', ['-l', join(rootfs, 'proc')], { timeoutMs: 30_000 }).catch(() => undefined);
    rmSync(rootfs, { recursive: true, force: true });
  }
}

/**
 * A Dockerfile line installing Debian packages without recommends, the apt lists removed after. The
 * same text for the same packages: derived images are tagged by their recipe's digest.
 */
export function aptInstall(...packages: string[]): string {
  return `RUN apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install ${packages.join(' ')} && apt-get clean && rm -rf /var/lib/apt/lists/*`;
}

/**
 * Builds `<name>-<recipe digest>` from a Dockerfile given as lines (and files beside it), once: later
 * calls find it by that tag, which it returns.
 * On the host's network: apt-get and npm inside reach the same registries the host does.
 */
export async function ensureDerivedImage(
  engine: DockerEngine,
  name: string,
  dockerfile: string[],
  opts: { files?: Record<string, string>; dirs?: Record<string, string>; log?: Log; timeoutMs?: number } = {},
): Promise<string> {
  const log = opts.log ?? (() => undefined);
  // The tag carries a digest of the recipe (the Dockerfile and the files beside it): a changed recipe
  // builds a new image instead of finding a stale one.
  const recipe = createHash('sha256').update(dockerfile.join('\n'));
  for (const source of Object.values(opts.files ?? {})) recipe.update(readFileSync(source));
  const tag = `${name}-${recipe.digest('hex').slice(0, 10)}`;
  return onceInEngine(engine, tag, log, () => buildDerivedImage(engine, tag, dockerfile, { ...opts, log }));
}

async function buildDerivedImage(
  engine: DockerEngine,
  tag: string,
  dockerfile: string[],
  opts: { files?: Record<string, string>; dirs?: Record<string, string>; log: Log; timeoutMs?: number },
): Promise<void> {
  const log = opts.log;
  const context = mkdtempSync(join(dockerCacheDir(), 'context-'));
  const t0 = Date.now();
  try {
    writeFileSync(join(context, 'Dockerfile'), `${dockerfile.join('\n')}\n`);
    for (const [name, source] of Object.entries(opts.files ?? {})) copyFileSync(source, join(context, name));
    for (const [name, source] of Object.entries(opts.dirs ?? {})) cpSync(source, join(context, name), { recursive: true });
    log(`image ${tag}: first build (once) ...`);
    await engine.run(['build', '--network=host', '--rm', '-t', tag, context], {
      timeoutMs: opts.timeoutMs ?? 15 * 60_000,
      onLine: (line) => {
        if (/^Step \d+\/\d+/.test(line)) log(`image ${tag}: ${line.slice(0, 140)}`);
      },
    });
    log(`image ${tag}: built in ${seconds(t0)}`);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

/**
 * The CA bundle the host trusts, for the build image's npm: where a TLS-inspecting proxy stands between
 * this machine and the npm registry, Node's own root store alone refuses the registry's certificate.
 */
export function hostCaBundle(): string | undefined {
  return [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'].find((f): f is string => !!f && existsSync(f));
}

/** The Dockerfile's BUILD_IMAGE: the base with Debian's npm, trusting what the host trusts. */
export async function ensureNodeBuildImage(engine: DockerEngine, log: Log = () => undefined): Promise<string> {
  const base = await ensureNodeBaseImage(engine, log);
  const ca = hostCaBundle();
  return ensureDerivedImage(
    engine,
    NODE_BUILD_IMAGE,
    [
      `FROM ${base}`,
      ...(ca ? ['COPY host-ca.crt /usr/local/share/kubeairunway/host-ca.crt', 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/kubeairunway/host-ca.crt'] : []),
      aptInstall('npm'),
      'RUN npm --version',
    ],
    { files: ca ? { 'host-ca.crt': ca } : {}, log },
  );
}

/** The tag the project's tests give the image they build from the working tree. */
export const PROJECT_TEST_IMAGE = 'kubeairunway-local/kubeairunway:test';

/**
 * `docker build` of the project's Dockerfile on the Debian bases (NODE_IMAGE, BUILD_IMAGE), on the host's
 * network for npm. The engine's layer cache makes a rebuild with unchanged dependencies cost only the
 * compile stage.
 */
export async function buildProjectImage(engine: DockerEngine, root: string, tag = PROJECT_TEST_IMAGE, log: Log = () => undefined): Promise<{ tag: string; seconds: number }> {
  // The build image is made from the base, so making it makes (or finds) both.
  const build = await ensureNodeBuildImage(engine, log);
  // One build of the Dockerfile at a time, whatever its tag: a second beside it would only repeat it (and
  // could lose its stage cache to the first one's clean-up); after the wait it takes every layer cached.
  return withBuildLock(BUILD_LOCKS(), 'kubeairunway-product-image', () => buildFromDockerfile(engine, root, tag, build, log), { log });
}

async function buildFromDockerfile(engine: DockerEngine, root: string, tag: string, build: string, log: Log): Promise<{ tag: string; seconds: number }> {
  const base = NODE_BASE_IMAGE;
  // Images left without a tag by earlier builds (the image this tag named, stages of older sources):
  // removed after this build, but for those it used (its stages' cached layers are untagged too).
  const leftovers = (await engine.run(['images', '--quiet', '--no-trunc', '--filter', 'dangling=true'])).split('\n').filter(Boolean);
  const output: string[] = [];
  const t0 = Date.now();
  log(`image ${tag}: docker build of ${join(root, 'Dockerfile')} (NODE_IMAGE=${base}, BUILD_IMAGE=${build}) ...`);
  await engine.run(['build', '--network=host', '--rm', '--build-arg', `NODE_IMAGE=${base}`, '--build-arg', `BUILD_IMAGE=${build}`, '-t', tag, root], {
    timeoutMs: 30 * 60_000,
    onLine: (line) => {
      output.push(line);
      if (/^Step \d+\/\d+/.test(line)) log(`image ${tag}: ${line.slice(0, 140)} (${seconds(t0)})`);
    },
  });
  const took = (Date.now() - t0) / 1000;
  log(`image ${tag}: built in ${took.toFixed(0)}s`);
  // One at a time and without force: an image another still builds on stays.
  for (const id of unusedImages(leftovers, output)) await engine.run(['rmi', id], { timeoutMs: 60_000 }).catch(() => undefined);
  return { tag, seconds: took };
}

/**
 * Of `images` (`sha256:<hex>` ids), those a classic-builder build whose output is `buildOutput` did not
 * use: every step's image is printed as ` ---> <12 hex digits>`, found in the cache or made.
 */
export function unusedImages(images: readonly string[], buildOutput: readonly string[]): string[] {
  const used = new Set(buildOutput.map((line) => /^ ---> ([0-9a-f]{12})$/.exec(line)?.[1]).filter((id): id is string => id !== undefined));
  return images.filter((id) => !used.has(id.replace(/^sha256:/, '').slice(0, 12)));
}

/**
 * Two Dockerfile lines installing `packages` from a newer Debian suite onto the trixie base: its source
 * added on the same mirror, then apt-get told not to judge the age of its Release file (the registry here
 * serves a fixed snapshot of the archive, where testing's weekly re-signed Release has expired: seen 22 days).
 */
export function aptInstallFromSuite(suite: string, ...packages: string[]): string[] {
  return [
    `RUN sed -n 's/ trixie / ${suite} /p' /etc/apt/sources.list > /etc/apt/sources.list.d/${suite}.list && test -s /etc/apt/sources.list.d/${suite}.list`,
    `RUN apt-get -q -o Acquire::Check-Valid-Until=false update && DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends -t ${suite} install ${packages.join(' ')} && apt-get clean && rm -rf /var/lib/apt/lists/*`,
  ];
}

/**
 * A Kybernate node: trixie's containerd (1.7) and runc, iptables (with which CRIU locks a container's
 * network while it dumps), and CRIU from forky (4.2). Trixie's CRIU 4.1.1 cannot dump a process holding
 * any TCP or UDP socket on kernels from 6.16 on, this machine's included: they refuse SO_PASSCRED and
 * SO_PASSSEC on such sockets, and 4.1.1 fails the dump on that (`sockets: Can't get 1:16 opt: Operation
 * not supported`); 4.2 carries on. A server (an inference server above all) always holds one.
 */
export async function ensureKybernateNodeImage(engine: DockerEngine, log: Log = () => undefined): Promise<string> {
  const base = await ensureNodeBaseImage(engine, log);
  return ensureDerivedImage(
    engine,
    KYBERNATE_NODE_IMAGE,
    [
      `FROM ${base}`,
      aptInstall('containerd', 'runc', 'iptables'),
      ...aptInstallFromSuite('forky', 'criu'),
      // Refuse to tag an image whose CRIU is older than 4.2 (checkpoints of servers would fail, as above).
      'RUN criu --version && criu --version | grep -Eq "Version: (4\\.([2-9]|[1-9][0-9])|[5-9]|[1-9][0-9])\\." && containerd --version && runc --version',
    ],
    { log },
  );
}
