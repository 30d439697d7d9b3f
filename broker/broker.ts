import { connect, type Channel, type ChannelModel } from 'amqplib';
import { BrokerError, classifyBrokerError } from './errors.ts';
import { actorQueueNames, workQueueArguments, type ActorQueues } from './queues.ts';

export interface BrokerOptions {
  /** Bound on connecting and on each call (one call may take several round trips); 10 s when omitted. */
  timeoutMs?: number;
}

/** The RabbitMQ operations an AsyncActor needs. Failures are BrokerErrors (see errors.ts). */
export interface Broker {
  /** Declares the DLQ, then the work queue dead-lettering into it; both durable. Idempotent. */
  declareActorQueues(actor: string): Promise<ActorQueues>;
  /** Deletes both queues with whatever they hold; names the ones that existed (none is fine). */
  deleteActorQueues(actor: string): Promise<{ deleted: string[] }>;
  /** Messages ready for delivery in queue `name` (not those delivered and unacknowledged); undefined when it does not exist. */
  queueDepth(name: string): Promise<number | undefined>;
  close(): Promise<void>;
}

const NOT_FOUND = 404;

/**
 * Connects to `url` (`amqp://user:pass@host:port/vhost`) and keeps one connection, opened again by the
 * next call after it is lost (a restarted broker). Every call gets a channel of its own: the broker
 * closes a channel on any refused operation (a missing queue included), which must not take other
 * calls with it.
 */
export async function openBroker(url: string, opts: BrokerOptions = {}): Promise<Broker> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let current: Promise<ChannelModel> | undefined;
  let closed = false;

  const connectNow = (): Promise<ChannelModel> => {
    const model: Promise<ChannelModel> = connect(url, { timeout: timeoutMs }).then((m) => {
      // The 'close' that follows an 'error' is what matters here; an 'error' nobody hears would crash the process.
      m.on('error', () => {});
      m.on('close', () => {
        if (current === model) current = undefined;
      });
      return m;
    });
    current = model;
    model.catch(() => {
      if (current === model) current = undefined;
    });
    return model;
  };

  /** Forgets a connection that stopped answering; the next call opens a new one. */
  const drop = (model: Promise<ChannelModel>) => {
    if (current === model) current = undefined;
    model.then((m) => m.close()).catch(() => {});
  };

  const call = async <T>(action: string, fn: (ch: Channel) => Promise<T>): Promise<T> => {
    if (closed) throw new Error(`${action}: this broker client is closed`);
    const model = current ?? connectNow();
    const work = (async () => {
      const ch = await (await model).createChannel();
      // A refused operation rejects its own promise as well; the channel's 'error' event repeats it.
      ch.on('error', () => {});
      try {
        return await fn(ch);
      } finally {
        // Already closed when the broker refused something; closing again is then an error to ignore.
        await ch.close().catch(() => {});
      }
    })();
    try {
      return await bounded(work, timeoutMs);
    } catch (err) {
      const b = classifyBrokerError(err);
      if (b.type === 'BrokerUnavailable') drop(model);
      throw new BrokerError(b.type, b.replyCode, `${action}: ${b.detail}`);
    }
  };

  /** The queue's reply, or undefined when the broker says it does not exist. */
  const check = async (ch: Channel, name: string) => {
    try {
      return await ch.checkQueue(name);
    } catch (err) {
      if ((err as { code?: unknown }).code === NOT_FOUND) return undefined;
      throw err;
    }
  };

  const first = connectNow();
  try {
    await bounded(first, timeoutMs);
  } catch (err) {
    drop(first);
    const b = classifyBrokerError(err);
    throw new BrokerError(b.type, b.replyCode, `connect to ${redacted(url)}: ${b.detail}`);
  }

  return {
    async declareActorQueues(actor) {
      const names = actorQueueNames(actor);
      return call(`declare queues ${names.queue} and ${names.dlq}`, async (ch) => {
        // The DLQ first: the work queue may dead-letter into it from its first message on.
        await ch.assertQueue(names.dlq, { durable: true });
        await ch.assertQueue(names.queue, { durable: true, arguments: workQueueArguments(names) });
        return names;
      });
    },

    async deleteActorQueues(actor) {
      const names = actorQueueNames(actor);
      const deleted: string[] = [];
      for (const name of [names.queue, names.dlq]) {
        const existed = await call(`delete queue ${name}`, async (ch) => {
          // RabbitMQ answers delete-ok for a missing queue too; the check tells whether there was one.
          if (!(await check(ch, name))) return false;
          await ch.deleteQueue(name);
          return true;
        });
        if (existed) deleted.push(name);
      }
      return { deleted };
    },

    async queueDepth(name) {
      return call(`check queue ${name}`, async (ch) => (await check(ch, name))?.messageCount);
    },

    async close() {
      if (closed) return;
      closed = true;
      const model = current;
      current = undefined;
      if (!model) return;
      await bounded(
        model.then((m) => m.close()),
        timeoutMs,
      ).catch(() => {});
    },
  };
}

/** `promise`, or a BrokerUnavailable once `ms` have passed; a late rejection is dropped. */
function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BrokerError('BrokerUnavailable', undefined, `no answer within ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The URL without its password, for messages. */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
}
