import { describe, expect, it } from 'vitest';
import { actorQueueNames, workQueueArguments } from './queues.ts';

describe('actor queues', () => {
  it('names the work queue and its DLQ as Asya does, and dead-letters through the default exchange', () => {
    const names = actorQueueNames('text-embedder');
    expect(names).toEqual({ queue: 'asya-text-embedder', dlq: 'asya-text-embedder-dlq' });
    expect(workQueueArguments(names)).toEqual({ 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'asya-text-embedder-dlq' });
  });

  it('refuses names AMQP cannot carry (over 255 bytes) and the empty name, as non-retryable', () => {
    expect(actorQueueNames('a'.repeat(255 - 'asya--dlq'.length)).dlq).toHaveLength(255);
    expect(() => actorQueueNames('a'.repeat(256 - 'asya--dlq'.length))).toThrow(expect.objectContaining({ type: 'BrokerRefused', retryable: false }));
    expect(() => actorQueueNames('')).toThrow(expect.objectContaining({ type: 'BrokerRefused' }));
  });
});
