import { BrokerError } from './errors.ts';

/**
 * An AsyncActor's two queues, named as Asya names them: its work queue `asya-<actor>` and the dead-letter
 * queue `asya-<actor>-dlq` that rejected or expired messages move to (through the default exchange, which
 * routes by queue name).
 */
export interface ActorQueues {
  queue: string;
  dlq: string;
}

// AMQP's short strings: a queue name is at most 255 bytes.
const MAX_NAME_BYTES = 255;

export function actorQueueNames(actor: string): ActorQueues {
  const names = { queue: `asya-${actor}`, dlq: `asya-${actor}-dlq` };
  // Refused here rather than by the broker, which would close the connection over it (a frame error).
  if (!actor || Buffer.byteLength(names.dlq) > MAX_NAME_BYTES) {
    throw new BrokerError('BrokerRefused', undefined, `actor name ${JSON.stringify(actor)} makes a queue name that is empty or longer than ${MAX_NAME_BYTES} bytes`);
  }
  return names;
}

/** The work queue's arguments; declaring it again with any other arguments is refused by the broker. */
export function workQueueArguments(names: ActorQueues): Record<string, string> {
  return { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': names.dlq };
}
