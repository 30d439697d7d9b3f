import type { ApplicationFailure } from '@temporalio/common';
import { activityFailure, isRetryableFailure, messageOf } from '../contract/failure-types.ts';

/**
 * Every RabbitMQ failure is classified here, once. Two kinds matter to a caller: the broker could not
 * be reached or did not answer in time (trying again later can succeed), or it answered and said no —
 * wrong credentials, a missing vhost, a queue declared before with other arguments (trying again
 * cannot help until someone changes something).
 */
export type BrokerErrorType = 'BrokerUnavailable' | 'BrokerRefused';

export class BrokerError extends Error {
  constructor(
    readonly type: BrokerErrorType,
    /** The AMQP reply code when the broker sent one (403, 404, 406, 530, ...). */
    readonly replyCode: number | undefined,
    /** What went wrong, for people: the broker's own text when it sent one. */
    readonly detail: string,
  ) {
    super(`${type}${replyCode ? ` (AMQP ${replyCode})` : ''}: ${detail}`);
    this.name = 'BrokerError';
  }

  /** Its retry class is contract/failure-types.ts's (the type is already the activity failure type). */
  get retryable(): boolean {
    return isRetryableFailure(this.type);
  }
}

// Reply codes that say "no" to this request: invalid-path, access-refused, not-found, resource-locked,
// precondition-failed, syntax-error, command-invalid, not-allowed, not-implemented. The others
// (connection-forced while the broker stops, resource-error, internal-error, ...) may pass.
const REFUSED_CODES = new Set([402, 403, 404, 405, 406, 502, 503, 530, 540]);

/**
 * amqplib reports a channel or connection closed by the broker with a numeric `code` (the reply code),
 * but a failed opening handshake (bad credentials, unknown vhost) only in its message; those two message
 * shapes are read here and nowhere else.
 */
export function classifyBrokerError(err: unknown): BrokerError {
  if (err instanceof BrokerError) return err;
  const message = messageOf(err);
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number') return new BrokerError(REFUSED_CODES.has(code) ? 'BrokerRefused' : 'BrokerUnavailable', code, message);
  const handshake = /^Handshake terminated by server: (\d{3})/.exec(message);
  if (handshake) return new BrokerError('BrokerRefused', Number(handshake[1]), message);
  // The broker closed the connection instead of opening it: the vhost is unknown or not allowed.
  if (/^Expected ConnectionOpenOk; got <ConnectionClose/.test(message)) return new BrokerError('BrokerRefused', 530, message);
  // Socket errors, timeouts, a connection that closed under us, a broker shutting down (320): all pass.
  return new BrokerError('BrokerUnavailable', undefined, message);
}

/** The failure an activity throws: type `BrokerUnavailable` (retryable) or `BrokerRefused` (not). */
export function toBrokerActivityFailure(err: unknown, action: string): ApplicationFailure {
  const b = classifyBrokerError(err);
  return activityFailure(b.type, `${action}: ${b.detail}`, [{ type: b.type, replyCode: b.replyCode ?? null, detail: b.detail }]);
}
