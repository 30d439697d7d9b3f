import { describe, expect, it } from 'vitest';
import { BrokerError, classifyBrokerError, toBrokerActivityFailure } from './errors.ts';

// Errors in the shapes amqplib gives them (recorded against the local stack's RabbitMQ).
const channelClosed = (code: number, text: string) => Object.assign(new Error(`Operation failed: QueueDeclare; ${code} (${text}) with message "${text.replace('-', '_')} - ..."`), { code });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5672`), { code });

describe('classifyBrokerError', () => {
  it('refuses what the broker said no to: redeclared queues, locked or missing queues, logins, vhosts', () => {
    for (const [err, replyCode] of [
      [channelClosed(406, 'PRECONDITION-FAILED'), 406],
      [channelClosed(405, 'RESOURCE-LOCKED'), 405],
      [channelClosed(404, 'NOT-FOUND'), 404],
      [channelClosed(403, 'ACCESS-REFUSED'), 403],
      [new Error('Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused"'), 403],
      [new Error('Expected ConnectionOpenOk; got <ConnectionClose channel:0>'), 530],
    ] as const) {
      const b = classifyBrokerError(err);
      expect(b).toMatchObject({ type: 'BrokerRefused', replyCode, retryable: false });
      expect(b.detail).toBe(err.message);
    }
  });

  it('lets unreachable, slow or stopping brokers be tried again', () => {
    for (const err of [
      socketError('ECONNREFUSED'),
      socketError('ECONNRESET'),
      new Error('connect ETIMEDOUT'),
      new Error('Socket closed abruptly during opening handshake'),
      Object.assign(new Error('Connection closed: 320 (CONNECTION-FORCED) with message "CONNECTION_FORCED - broker forced connection closure"'), { code: 320 }),
      Object.assign(new Error('Connection closed'), { name: 'IllegalOperationError' }),
      'a string thrown by someone',
    ]) {
      expect(classifyBrokerError(err)).toMatchObject({ type: 'BrokerUnavailable', retryable: true });
    }
  });

  it('keeps an already classified error as it is', () => {
    const err = new BrokerError('BrokerRefused', 406, 'x');
    expect(classifyBrokerError(err)).toBe(err);
    expect(err.message).toBe('BrokerRefused (AMQP 406): x');
  });
});

describe('toBrokerActivityFailure', () => {
  it('carries the type, and is non-retryable exactly when the broker refused', () => {
    const refused = toBrokerActivityFailure(channelClosed(406, 'PRECONDITION-FAILED'), 'declare queues of default/a');
    expect(refused).toMatchObject({ type: 'BrokerRefused', nonRetryable: true });
    expect(refused.message).toMatch(/^declare queues of default\/a: Operation failed/);
    expect(refused.details).toEqual([{ type: 'BrokerRefused', replyCode: 406, detail: expect.stringContaining('PRECONDITION') }]);
    expect(toBrokerActivityFailure(socketError('ECONNREFUSED'), 'x')).toMatchObject({ type: 'BrokerUnavailable', nonRetryable: false });
  });
});
