import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { delimiter, join } from 'node:path';
import { connect } from 'amqplib';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';
import { executable } from './executables.ts';

// RabbitMQ for the local stack: Debian's rabbitmq-server package (installed by scripts/setup.mjs), run as
// a child of the stack on loopback with everything it writes — data, logs, its Erlang cookie — under the
// stack's state folder. Nothing is shared with a system broker, and one stack's broker never meets
// another's: each has its own epmd (Erlang's node name registry) on a port of its own.

export const RABBITMQ_SERVER_ENV = 'KUBEAIRUNWAY_RABBITMQ_SERVER';
/** The package's start script itself: /usr/sbin's wrapper would switch to the rabbitmq user and /var/lib/rabbitmq. */
const DEBIAN_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const DEBIAN_EPMD = '/usr/lib/erlang/bin/epmd';

export interface RabbitMqBinaries {
  server: string;
  epmd: string;
}

export interface RabbitMqPorts {
  amqp: number;
  /** Erlang distribution (node to node); nothing here uses it, but it must not be a fixed port two stacks share. */
  dist: number;
  epmd: number;
}

export interface RabbitMq {
  process: ManagedProcess;
  /** Guest may log in from loopback only, which is where every client of the local stack is. */
  amqpUrl: string;
  nodeName: string;
}

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)).find((p) => p.startsWith('/') && executable(p));
}

/** The server's start script and epmd, or an error saying how to get them. */
export function resolveRabbitmq(): RabbitMqBinaries {
  const fromEnv = process.env[RABBITMQ_SERVER_ENV];
  if (fromEnv && !executable(fromEnv)) throw new Error(`${RABBITMQ_SERVER_ENV}=${fromEnv} is not an executable file`);
  if (fromEnv && realpathSync(fromEnv).endsWith('/rabbitmq-script-wrapper')) {
    throw new Error(`${RABBITMQ_SERVER_ENV}=${fromEnv} is Debian's wrapper, which runs the broker as the rabbitmq user on /var/lib/rabbitmq; point it at ${DEBIAN_SERVER}`);
  }
  const server = fromEnv || (executable(DEBIAN_SERVER) ? DEBIAN_SERVER : undefined);
  // The server script runs the `erl` on PATH; epmd comes from the same Erlang.
  const epmd = onPath('epmd') ?? (executable(DEBIAN_EPMD) ? DEBIAN_EPMD : undefined);
  if (!server || !epmd) {
    throw new Error(
      `RabbitMQ is not installed (${server ? 'no epmd on PATH' : `no ${DEBIAN_SERVER}`}). Run \`node scripts/setup.mjs\` (as root it installs Debian's rabbitmq-server), ` +
        `or install rabbitmq-server and Erlang yourself and set ${RABBITMQ_SERVER_ENV} to its start script.`,
    );
  }
  return { server, epmd };
}

/** One node name per state folder: stable across restarts (it names the data folder), distinct between stacks. */
export function rabbitmqNodeName(stateDir: string): string {
  return `rabbit-${createHash('sha256').update(stateDir).digest('hex').slice(0, 10)}@localhost`;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: '127.0.0.1', port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => socket.destroy(new Error('connect timeout')));
    socket.once('error', reject);
  });
}

/**
 * epmd in the foreground, started by us: RabbitMQ would otherwise start one with `-daemon`, which leaves
 * its process group (so it would outlive the stack) and listens on the well-known port 4369. It is run
 * through a link in the state folder so its command line names that folder, which is what lets a later
 * run reap it if this one is SIGKILLed (leftovers.ts kills only processes whose command line does).
 */
export async function startEpmd(bin: string, stateDir: string, port: number): Promise<ManagedProcess> {
  const dir = join(stateDir, 'rabbitmq');
  mkdirSync(dir, { recursive: true });
  const link = join(dir, 'epmd');
  rmSync(link, { force: true });
  symlinkSync(bin, link);
  const proc = startProcess('epmd', link, ['-port', String(port), '-address', '127.0.0.1'], join(stateDir, 'rabbitmq-epmd.log'));
  await waitUntil(proc, 'listening', 30_000, () => canConnect(port));
  return proc;
}

/**
 * Starts the broker on `ports` (fixed by the caller, so a restarted broker keeps its address) with its
 * data in the state folder (durable queues survive restarts). Its epmd must already listen on ports.epmd.
 * The process is beam.smp itself (the script execs it), so stopping it by id stops the broker: SIGTERM
 * shuts it down cleanly in a few seconds.
 */
export async function startRabbitmq(bin: string, stateDir: string, ports: RabbitMqPorts): Promise<RabbitMq> {
  // Said plainly here (a supervisor restarting both may get to the broker first) rather than as the
  // broker's own boot failure some seconds later.
  if (!(await canConnect(ports.epmd).catch(() => false))) throw new Error(`RabbitMQ's epmd is not listening on 127.0.0.1:${ports.epmd} yet`);
  const dir = join(stateDir, 'rabbitmq');
  mkdirSync(join(dir, 'mnesia'), { recursive: true });
  mkdirSync(join(dir, 'log'), { recursive: true });
  // No plugins (no management UI); a plugin list in Erlang terms.
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  // Our own (empty) env file, so /etc/rabbitmq/rabbitmq-env.conf cannot move the node or its ports.
  writeFileSync(join(dir, 'rabbitmq-env.conf'), '');
  writeFileSync(
    join(dir, 'rabbitmq.conf'),
    [
      '# Written by the local stack (devstack/rabbitmq.ts) at every start.',
      // Every connection opened and closed is logged at info; the readiness probe alone would fill the log.
      'log.connection.level = warning',
      '',
    ].join('\n'),
  );
  const nodeName = rabbitmqNodeName(stateDir);
  const env: NodeJS.ProcessEnv = {
    // The Erlang cookie is created in $HOME: this one is private to the stack.
    HOME: dir,
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_USE_LONGNAME: 'false',
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(ports.amqp),
    RABBITMQ_DIST_PORT: String(ports.dist),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    ERL_EPMD_PORT: String(ports.epmd),
    // Never a daemon epmd of its own (it would escape the stack), not even from the helper VM the broker
    // runs at boot to "make sure epmd runs": every Erlang VM of this tree reads ERL_FLAGS.
    ERL_FLAGS: '-start_epmd false',
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    // The broker's log goes to its standard output, which is rabbitmq.log next to the other servers' logs.
    RABBITMQ_LOGS: '-',
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_ADVANCED_CONFIG_FILE: join(dir, 'advanced.config'),
    RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
    // With input allowed the script execs the Erlang VM instead of waiting on it in a shell, so the
    // process we start (and stop, by id) is the broker itself; -noinput then keeps it from reading stdin.
    RABBITMQ_ALLOW_INPUT: 'true',
    RABBITMQ_SERVER_START_ARGS: '-noinput',
    // Distribution listens on loopback only (epmd does by ERL_EPMD_ADDRESS, AMQP by NODE_IP_ADDRESS).
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    ERL_CRASH_DUMP: join(dir, 'erl_crash.dump'),
  };
  const proc = startProcess('rabbitmq', bin, [], join(stateDir, 'rabbitmq.log'), env);
  const amqpUrl = `amqp://guest:guest@127.0.0.1:${ports.amqp}`;
  // The AMQP listener opens last in the boot, so a connection that opens means the broker is ready.
  await waitUntil(proc, 'accepting AMQP connections', 90_000, async () => {
    const connection = await connect(amqpUrl, { timeout: 2_000 });
    connection.on('error', () => {});
    await connection.close();
    return true;
  });
  return { process: proc, amqpUrl, nodeName };
}
