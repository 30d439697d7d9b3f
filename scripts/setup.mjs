#!/usr/bin/env node
// First step of the README's commands on a fresh clone: install npm dependencies when they are missing
// or stale, then build (or find) the local stack's Go binaries and install RabbitMQ. Plain JavaScript:
// nothing is installed yet.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stdout.write(`[setup] ${line}\n`);

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`[setup] \`${cmd} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`[setup] Node ${process.versions.node} is too old: kubeairunway needs Node >= 20.19.\n`);
  process.exit(1);
}

const installed = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
  // `npm install`, not `npm ci`: the lock file cannot list platform packages a registry mirror lacks
  // (e.g. @swc/core's macOS builds), and `npm ci` refuses such a lock; `npm install` follows it anyway.
  say('installing npm dependencies (npm install) ...');
  run('npm', ['install', '--no-audit', '--no-fund']);
} else {
  say('npm dependencies up to date');
}

// The `kubeairunway` command runs compiled JavaScript (bin/kubeairunway.js); compile it now, so the
// first call does not pay for it (later calls recompile only the sources that changed).
run(process.execPath, [join(root, 'scripts', 'compile.mjs'), '--quiet']);

if (!process.argv.includes('--no-tools')) {
  say('checking local-stack binaries (a first build takes several minutes; later runs reuse the cache) ...');
  // --operators (npm test): also the real KubeRay and KEDA operators the end-to-end tests run; --cluster
  // (npm test): the cluster mode's tools (kubelet, scheduler, kube-proxy, CNI plugins, CoreDNS, helm).
  const extra = ['--operators', '--cluster'].filter((flag) => process.argv.includes(flag));
  run(join(root, 'node_modules', '.bin', 'tsx'), ['tools/build.ts', ...extra]);
  ensureRabbitmq();
  ensureContainerd();
  ensureDocker();
}

// RabbitMQ is not a Go module: the local stack runs Debian's rabbitmq-server package, started on loopback
// by devstack/rabbitmq.ts (which resolves the same two places as here). The package's own script, not
// /usr/sbin's wrapper, which would switch to the rabbitmq user and the system's data folder.
function ensureRabbitmq() {
  const fromEnv = process.env.KUBEAIRUNWAY_RABBITMQ_SERVER;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) fail(`KUBEAIRUNWAY_RABBITMQ_SERVER=${fromEnv} is not an executable file`);
    say(`rabbitmq-server: using ${fromEnv} (KUBEAIRUNWAY_RABBITMQ_SERVER)`);
    return;
  }
  const script = '/usr/lib/rabbitmq/bin/rabbitmq-server';
  if (isExecutable(script)) {
    say(`rabbitmq-server: using ${script} (${debianVersion() ?? 'installed'})`);
    return;
  }
  const hint =
    "Install Debian's or Ubuntu's rabbitmq-server package as root (apt-get install --no-install-recommends rabbitmq-server; " +
    'stop the system broker it may start), or point KUBEAIRUNWAY_RABBITMQ_SERVER at an existing rabbitmq-server start script.';
  if (process.getuid?.() !== 0 || !isExecutable('/usr/bin/apt-get')) fail(`RabbitMQ is missing and this setup can install it only as root with apt-get. ${hint}`);
  try {
    installRabbitmq();
  } catch (err) {
    fail(`${err.message}. ${hint}`);
  }
  if (!isExecutable(script)) fail(`the rabbitmq-server package installed no ${script}. ${hint}`);
  say(`rabbitmq-server: installed ${debianVersion() ?? ''}`.trimEnd());
}

/**
 * apt-get install with services held back: the package's postinst would start a system-wide broker on
 * 0.0.0.0:5672 (and epmd on 4369), which nothing here wants. A broker that started anyway is stopped.
 */
function installRabbitmq() {
  const erlangBefore = new Set(erlangProcesses());
  aptInstallStartingNoServices('RabbitMQ', ['rabbitmq-server'], 'rabbitmq-server (with Erlang, about 40 MB)');
  for (const pid of erlangProcesses().filter((p) => !erlangBefore.has(p))) {
    say(`stopping pid ${pid} (${commandOf(pid).slice(0, 80)}), started by the package install`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  // Under systemd the package also enables its units for the next boot; the local stack needs neither.
  if (existsSync('/run/systemd/system')) {
    say('disabling the system rabbitmq-server service and epmd socket (the local stack starts its own on loopback)');
    spawnSync('systemctl', ['disable', '--now', 'rabbitmq-server.service', 'epmd.socket', 'epmd.service'], { stdio: 'inherit' });
  }
}

// The real-daemon tier of containerd/ (test/containerd/): Debian's containerd and runc, started as root by
// devstack/containerd.ts on a private socket and state folder (never the system's), busybox-static for the
// tiny container it runs, CRIU for checkpoints and iptables, with which CRIU locks a container's network
// while it dumps. Debian 12's CRIU 3.17 fails `criu check` on recent kernels: a checkpoint then fails with
// CRIU's own error, which the tests expect and say. Only root can run containers, so only root's setup
// installs these; everyone else's containerd tests skip, saying so.
function ensureContainerd() {
  // Declared here, not at the top level: the calls above run before the module's later lines would.
  const CONTAINERD_ENV = 'KUBEAIRUNWAY_CONTAINERD';
  const CONTAINERD_PACKAGES = ['containerd', 'runc', 'busybox-static', 'criu', 'iptables'];
  if (process.getuid?.() !== 0) {
    say('containerd: not installed (not root; the containerd tests need root to run containers and skip without it)');
    return;
  }
  const fromEnv = process.env[CONTAINERD_ENV];
  if (fromEnv && !isExecutable(fromEnv)) fail(`${CONTAINERD_ENV}=${fromEnv} is not an executable file`);
  const wanted = fromEnv ? CONTAINERD_PACKAGES.filter((p) => p !== 'containerd') : CONTAINERD_PACKAGES;
  let versions = installedPackages(wanted);
  const missing = wanted.filter((p) => !versions.has(p));
  const using = () => `containerd: using ${fromEnv ? `${fromEnv} (${CONTAINERD_ENV})` : '/usr/bin/containerd'}; ${[...versions].map(([p, v]) => `${p} ${v}`).join(', ')}`;
  if (missing.length === 0) {
    say(using());
    return;
  }
  const hint =
    `Install Debian's packages as root (apt-get install --no-install-recommends ${wanted.join(' ')}; stop the system containerd it may start), ` +
    `or point ${CONTAINERD_ENV} at a containerd binary and install runc, criu and a static busybox at /bin/busybox yourself.`;
  if (!isExecutable('/usr/bin/apt-get')) fail(`containerd's tests need ${missing.join(', ')}, which this setup can install only with apt-get (there is none here). ${hint}`);
  // The system daemon as its unit or init script starts it: bare, no --config. Ours always has one.
  installWithoutSystemDaemon('containerd', missing, '60 MB', hint, { daemon: /(^|\/)containerd\0$/, units: ['containerd.service'] });
  versions = installedPackages(wanted);
  const still = wanted.filter((p) => !versions.has(p));
  if (still.length > 0) fail(`apt-get install left ${still.join(', ')} missing. ${hint}`);
  say(using().replace('using', 'installed; using'));
}

/**
 * apt-get install of a daemon's packages with services held back; a system daemon the install started
 * anyway is stopped, and under systemd its units are disabled (they would start it at the next boot):
 * the tests start their own daemon on a private socket.
 */
function installWithoutSystemDaemon(what, packages, size, hint, { daemon, units }) {
  const before = new Set(processesMatching(daemon));
  try {
    aptInstallStartingNoServices(what, packages, `${packages.join(' ')} (about ${size})`);
  } catch (err) {
    fail(`${err.message}. ${hint}`);
  }
  for (const pid of processesMatching(daemon).filter((p) => !before.has(p))) {
    say(`stopping pid ${pid} (the system ${what}, started by the package install)`);
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone already
    }
  }
  if (existsSync('/run/systemd/system')) {
    say(`disabling ${units.join(', ')} (the tests start their own ${what} on a private socket)`);
    spawnSync('systemctl', ['disable', '--now', ...units], { stdio: 'inherit' });
  }
}

// The Docker engine for the project's own tests (test/image/, the compose test, the Kybernate node
// container): Debian's docker.io, whose dockerd devstack/docker.ts runs as root on a private socket and
// data root (never the system's), and debootstrap, which makes the tests' Debian base images (no
// registry serves base images here). Only root can run dockerd, so only root's setup installs them;
// everyone else's Docker tests skip, saying so.
function ensureDocker() {
  const DOCKER_PACKAGES = ['docker.io', 'debootstrap'];
  if (process.getuid?.() !== 0) {
    say('docker: not installed (not root; the image, compose and Kybernate node tests need root to run dockerd and skip without it)');
    return;
  }
  let versions = installedPackages(DOCKER_PACKAGES);
  const missing = DOCKER_PACKAGES.filter((p) => !versions.has(p));
  const using = () => `docker: ${[...versions].map(([p, v]) => `${p} ${v}`).join(', ')}`;
  if (missing.length === 0) {
    say(using());
    return;
  }
  const hint = `Install Debian's packages as root (apt-get install --no-install-recommends ${DOCKER_PACKAGES.join(' ')}; stop the system dockerd it may start), or set KUBEAIRUNWAY_DOCKERD to a dockerd binary.`;
  if (!isExecutable('/usr/bin/apt-get')) fail(`the Docker tests need ${missing.join(', ')}, which this setup can install only with apt-get (there is none here). ${hint}`);
  installWithoutSystemDaemon('Docker', missing, '80 MB', hint, { daemon: /(^|\/)dockerd\0/, units: ['docker.service', 'docker.socket'] });
  versions = installedPackages(DOCKER_PACKAGES);
  const still = DOCKER_PACKAGES.filter((p) => !versions.has(p));
  if (still.length > 0) fail(`apt-get install left ${still.join(', ')} missing. ${hint}`);
  say(using().replace('docker:', 'docker: installed'));
}

/** Package → version of those among `names` that dpkg says are installed (one dpkg-query call). */
function installedPackages(names) {
  const out = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Abbrev} ${Version}\n', ...names], { encoding: 'utf8' });
  const versions = new Map();
  for (const line of (out.stdout ?? '').split('\n')) {
    const [name, status, version] = line.trim().split(/\s+/);
    if (status === 'ii' && names.includes(name)) versions.set(name, version);
  }
  return versions;
}

/**
 * apt-get update and install, with a policy-rc.d that answers 101 in place meanwhile: it forbids the
 * packages' postinst scripts to start their services. One already in place is put back afterwards.
 * Throws (rather than exits) when apt fails, with policy-rc.d restored.
 */
function aptInstallStartingNoServices(what, packages, description) {
  const policy = '/usr/sbin/policy-rc.d';
  const saved = `${policy}.kubeairunway-saved`;
  const hadPolicy = existsSync(policy);
  if (hadPolicy) renameSync(policy, saved);
  writeFileSync(policy, `#!/bin/sh\n# Written by kubeairunway setup while it installs ${packages.join(', ')}: start no services.\nexit 101\n`, { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    say(`installing ${what}: apt-get update ...`);
    runOrThrow('apt-get', ['-q', 'update'], env);
    say(`installing ${what}: apt-get install ${description} ...`);
    runOrThrow('apt-get', ['-q', '-y', '--no-install-recommends', 'install', ...packages], env);
  } finally {
    rmSync(policy, { force: true });
    if (hadPolicy) renameSync(saved, policy);
  }
}

/** Ids of running Erlang VMs and epmd daemons, from /proc. */
function erlangProcesses() {
  return processesMatching(/(^|\/)(beam\.smp|epmd)\0/);
}

/** Ids of running processes whose command line (NUL-separated, as in /proc) matches. */
function processesMatching(pattern) {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => pattern.test(commandOf(pid)));
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

function debianVersion() {
  const out = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'rabbitmq-server'], { encoding: 'utf8' });
  return out.status === 0 && out.stdout ? `Debian package ${out.stdout}` : undefined;
}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// Throws rather than exits, so the caller's finally puts policy-rc.d back.
function runOrThrow(cmd, args, env) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`\`${cmd} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
}

function fail(message) {
  process.stderr.write(`[setup] ${message}\n`);
  process.exit(1);
}
