// RabbitMQ as a supervised part of the local stack, as `npm run dev` runs it: SIGKILL the broker and its
// epmd and both come back on the same ports with the broker's data (a durable queue and its messages);
// health() names them meanwhile; every process can be reaped by its command line, and a stop leaves
// nothing behind.
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBroker } from '../../broker/broker.ts';
import { startStack, type Stack } from '../../devstack/stack.ts';
import { eventually } from '../support/env.ts';
import { pidExists } from '../../devstack/process.ts';

/** The broker's Mnesia transaction log (its one node's folder under the state folder). */
/** The broker node's Mnesia folder in the state folder. */
function mnesiaDir(stateDir: string): string {
  const base = join(stateDir, 'rabbitmq', 'mnesia');
  const node = readdirSync(base, { withFileTypes: true }).find((e) => e.isDirectory() && e.name.startsWith('rabbit'));
  if (!node) throw new Error(`no node folder in ${base}: ${readdirSync(base).join(', ')}`);
  return join(base, node.name);
}

/**
 * Whether the queue `name` is written in Mnesia's files (its log, or a table it was dumped into): the
 * name as Erlang's external term format writes a binary (tag 109, its length in 4 bytes, the bytes), which
 * no other queue's name contains.
 */
function inMnesia(dir: string, name: string): boolean {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(Buffer.byteLength(name));
  const encoded = Buffer.concat([Buffer.from([109]), length, Buffer.from(name)]);
  return readdirSync(dir).filter((f) => /\.(LOG|DCD|DCL)$/.test(f)).some((f) => readFileSync(join(dir, f)).includes(encoded));
}

describe('supervised RabbitMQ', () => {
  let dir: string;
  let stack: Stack;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubeairunway-rabbitmq-'));
    stack = await startStack({ stateDir: dir, supervise: true, log: (l) => lines.push(l) });
  });
  let stopped = false;
  afterAll(async () => {
    if (!stopped) await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const proc = (name: string) => stack.processes.find((p) => p.name === name)!;

  it('runs on loopback with its data, logs and cookie in the state folder, both processes reapable by their command lines', async () => {
    expect(stack.amqpUrl).toBe(`amqp://guest:guest@127.0.0.1:${stack.ports.rabbitmq}`);
    expect(stack.processes.map((p) => p.name)).toEqual(expect.arrayContaining(['epmd', 'rabbitmq']));
    // leftovers.ts reaps a SIGKILLed run's processes only when their command line names the state folder.
    for (const name of ['epmd', 'rabbitmq']) expect(readFileSync(`/proc/${proc(name).pid}/cmdline`, 'utf8'), name).toContain(dir);
    expect(readFileSync(join(dir, 'rabbitmq', '.erlang.cookie'), 'utf8')).toMatch(/^[A-Z]+$/);
    expect(readFileSync(join(dir, 'rabbitmq.log'), 'utf8')).toContain(`started TCP listener on 127.0.0.1:${stack.ports.rabbitmq}`);
    // Loopback only: what listens on the broker's three ports, from /proc/net/tcp (127.0.0.1 is 0100007F).
    const listening = readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1).map((l) => l.trim().split(/\s+/)).filter((f) => f[3] === '0A').map((f) => f[1]!);
    for (const port of [stack.ports.rabbitmq, stack.ports.rabbitmqDist, stack.ports.rabbitmqEpmd]) {
      const local = listening.filter((a) => Number.parseInt(a.split(':')[1]!, 16) === port);
      expect(local, `port ${port}`).toEqual([`0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`]);
    }
  });

  it('restarts a SIGKILLed broker and epmd on the same ports, keeping durable queues and their messages', async () => {
    const broker = await openBroker(stack.amqpUrl);
    try {
      const { queue, dlq } = await broker.declareActorQueues('survivor');
      const raw = await connect(stack.amqpUrl);
      const ch = await raw.createConfirmChannel();
      ch.sendToQueue(queue, Buffer.from('kept'), { persistent: true });
      await ch.waitForConfirms();
      await raw.close();
      // The confirm says the message is on disk; the queues' declarations are in Mnesia, whose log the broker
      // writes a moment after each declare returns. A SIGKILL before that loses a queue, as a crash of any
      // RabbitMQ would (seen under load: the work queue, declared second, lost after the log had only grown
      // by the first). What is tested is the restart with the data on disk: both names written there.
      const mnesia = mnesiaDir(dir);
      await eventually('both queues written in Mnesia\'s files', async () => [queue, dlq].every((q) => inMnesia(mnesia, q)) || undefined, 20_000, 50);

      const [rabbit, epmd] = [proc('rabbitmq'), proc('epmd')];
      process.kill(rabbit.pid, 'SIGKILL');
      process.kill(epmd.pid, 'SIGKILL');
      // Each is named while it is down; epmd may be back before the broker is seen down, so the names
      // are gathered across polls rather than expected in one answer.
      const seenDown = new Set<string>();
      await eventually('health to name the killed parts', async () => {
        for (const d of stack.health().down) seenDown.add(d.name);
        return seenDown.size >= 2 ? true : undefined;
      }, 10_000, 20);
      expect([...seenDown].sort()).toEqual(['RabbitMQ', 'RabbitMQ epmd']);
      await eventually('the stack healthy again', async () => stack.health().ok, 120_000);
      expect(proc('rabbitmq').pid).not.toBe(rabbit.pid);
      expect(proc('epmd').pid).not.toBe(epmd.pid);
      expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^RabbitMQ is back after [\d.]+s \(pid \d+\)$/), expect.stringMatching(/^RabbitMQ epmd is back after/)]));

      // The same client reconnects by itself; the queue and its persistent message survived.
      expect(await broker.queueDepth(queue)).toBe(1);
      expect(await broker.deleteActorQueues('survivor')).toEqual({ deleted: ['asya-survivor', 'asya-survivor-dlq'] });
    } finally {
      await broker.close();
    }
  });

  it('stops every process, the broker and its epmd too', async () => {
    const pids = stack.processes.map((p) => p.pid);
    stopped = true;
    await stack.stop();
    for (const pid of pids) expect(pidExists(pid), `pid ${pid}`).toBe(false);
  });
});
