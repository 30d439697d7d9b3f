// The local stack's RabbitMQ through the broker client: an actor's queue and DLQ are declared (again and
// again), carry the dead-letter arguments, count what is published, and are deleted (also when already
// gone); a refusal by the broker is a non-retryable BrokerRefused, an unreachable broker a retryable
// BrokerUnavailable.
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBroker, type Broker } from '../../broker/broker.ts';
import { BrokerError } from '../../broker/errors.ts';
import { freePort } from '../../devstack/ports.ts';
import { stackInfo, uniqueName } from '../support/env.ts';

describe("the local stack's RabbitMQ", () => {
  const url = stackInfo().amqpUrl;
  let broker: Broker;
  let raw: ChannelModel;
  /** A plain amqplib channel for what the client does not do (publishing, redeclaring by hand). */
  const channel = async (): Promise<Channel> => {
    const ch = await raw.createChannel();
    ch.on('error', () => {});
    return ch;
  };

  beforeAll(async () => {
    broker = await openBroker(url);
    raw = await connect(url);
    raw.on('error', () => {});
  });
  afterAll(async () => {
    await broker?.close();
    await raw?.close();
  });

  it('listens on loopback with the guest login', () => {
    expect(url).toMatch(/^amqp:\/\/guest:guest@127\.0\.0\.1:\d+$/);
  });

  it('declares an actor queue that dead-letters into its DLQ, idempotently', async () => {
    const actor = uniqueName('declare');
    expect(await broker.declareActorQueues(actor)).toEqual({ queue: `asya-${actor}`, dlq: `asya-${actor}-dlq` });
    expect(await broker.declareActorQueues(actor)).toEqual({ queue: `asya-${actor}`, dlq: `asya-${actor}-dlq` });

    // The broker compares a redeclaration with what the queue has: the same declaration by hand passes,
    // and one that differs only in the dead-letter arguments or in durability is refused (406), each on
    // its own channel (a refusal closes the channel).
    const args = { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `asya-${actor}-dlq` };
    await expect((await channel()).assertQueue(`asya-${actor}`, { durable: true, arguments: args })).resolves.toMatchObject({ queue: `asya-${actor}` });
    await expect((await channel()).assertQueue(`asya-${actor}`, { durable: true })).rejects.toMatchObject({ code: 406 });
    await expect((await channel()).assertQueue(`asya-${actor}`, { durable: false, arguments: args })).rejects.toMatchObject({ code: 406 });
    await expect((await channel()).assertQueue(`asya-${actor}-dlq`, { durable: true })).resolves.toMatchObject({ queue: `asya-${actor}-dlq` });
    await expect((await channel()).assertQueue(`asya-${actor}-dlq`, { durable: false })).rejects.toMatchObject({ code: 406 });
    await broker.deleteActorQueues(actor);
  });

  it('counts published messages, and a rejected one moves to the DLQ', async () => {
    const actor = uniqueName('depth');
    const { queue, dlq } = await broker.declareActorQueues(actor);
    expect(await broker.queueDepth(queue)).toBe(0);
    const ch = await channel();
    ch.sendToQueue(queue, Buffer.from('{"n":1}'));
    ch.sendToQueue(queue, Buffer.from('{"n":2}'));
    await expect.poll(() => broker.queueDepth(queue), { timeout: 10_000 }).toBe(2);

    const msg = await ch.get(queue, { noAck: false });
    expect(msg).not.toBe(false);
    ch.reject(msg as Exclude<typeof msg, false>, false);
    await expect.poll(() => broker.queueDepth(dlq), { timeout: 10_000 }).toBe(1);
    expect(await broker.queueDepth(queue)).toBe(1);
    await ch.close();
    await broker.deleteActorQueues(actor);
  });

  it('deletes both queues with their messages, and deleting missing ones is no error', async () => {
    const actor = uniqueName('delete');
    const { queue, dlq } = await broker.declareActorQueues(actor);
    const ch = await channel();
    ch.sendToQueue(queue, Buffer.from('left behind'));
    await ch.close();
    expect(await broker.deleteActorQueues(actor)).toEqual({ deleted: [queue, dlq] });
    expect(await broker.queueDepth(queue)).toBeUndefined();
    expect(await broker.queueDepth(dlq)).toBeUndefined();
    expect(await broker.deleteActorQueues(actor)).toEqual({ deleted: [] });
    // The 404s above closed only their own channels: the client goes on.
    expect(await broker.declareActorQueues(actor)).toEqual({ queue, dlq });
    expect(await broker.deleteActorQueues(actor)).toEqual({ deleted: [queue, dlq] });
  });

  it('reports a queue declared before with other arguments as BrokerRefused, not retryable', async () => {
    const actor = uniqueName('refused');
    const ch = await channel();
    await ch.assertQueue(`asya-${actor}`, { durable: true });
    const err = await broker.declareActorQueues(actor).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect(err).toMatchObject({ type: 'BrokerRefused', replyCode: 406, retryable: false });
    expect((err as Error).message).toContain('PRECONDITION_FAILED');
    // The client is still usable after the refusal.
    expect(await broker.deleteActorQueues(actor)).toEqual({ deleted: [`asya-${actor}`, `asya-${actor}-dlq`] });
  });

  it('refuses wrong credentials (BrokerRefused) and reports a closed port as BrokerUnavailable', async () => {
    const wrong = url.replace('guest:guest', 'guest:wrong');
    await expect(openBroker(wrong)).rejects.toMatchObject({ type: 'BrokerRefused', replyCode: 403, retryable: false });
    const closed = `amqp://guest:guest@127.0.0.1:${await freePort()}`;
    await expect(openBroker(closed, { timeoutMs: 2_000 })).rejects.toMatchObject({ type: 'BrokerUnavailable', retryable: true });
  });
});
