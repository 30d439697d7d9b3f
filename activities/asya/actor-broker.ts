import { openBroker, type Broker } from '../../broker/broker.ts';
import { classifyBrokerError } from '../../broker/errors.ts';
import type { QueueOutcome } from '../../contract/asya-activities.ts';
import type { ActivityContext } from '../../kinds/kind-module.ts';

/**
 * An actor's queues as its workflow sees them: outcomes, not exceptions. A broker that is down or
 * refuses is a condition on the actor (TransportReady=False) and a retry on the poll interval; it
 * fails no pass and stops nothing else (the workload still runs and drains what it can).
 */
export interface ActorBroker {
  declare(actor: string): Promise<QueueOutcome>;
  delete(actor: string): Promise<{ ok: true; changes: string[] } | { ok: false; message: string }>;
}

export function actorBroker(broker: Broker): ActorBroker {
  return {
    async declare(actor) {
      try {
        const { queue, dlq } = await broker.declareActorQueues(actor);
        return { ready: true, reason: 'QueuesDeclared', message: `Queue ${queue} and its dead-letter queue ${dlq} are declared` };
      } catch (err) {
        const failure = classifyBrokerError(err);
        return { ready: false, reason: failure.type, message: `Declaring the queues of '${actor}' failed: ${failure.detail}` };
      }
    },
    async delete(actor) {
      try {
        const { deleted } = await broker.deleteActorQueues(actor);
        return { ok: true, changes: deleted.map((q) => `deleted queue ${q}`) };
      } catch (err) {
        return { ok: false, message: `the queues of '${actor}' (${classifyBrokerError(err).detail})` };
      }
    },
  };
}

/**
 * The broker `--amqp-url` names (ASYA_AMQP_URL), connected before the worker starts (a broker that
 * cannot be reached fails the start) and closed once it has stopped; undefined without one: the
 * actors' queues are then not managed (TransportReady says so).
 */
export async function connectActorBroker(ctx: Pick<ActivityContext, 'flags' | 'onStop'>): Promise<ActorBroker | undefined> {
  const url = ctx.flags?.amqpUrl;
  if (typeof url !== 'string' || url === '') return undefined;
  const broker = await openBroker(url);
  ctx.onStop?.(() => broker.close().catch(() => undefined));
  return actorBroker(broker);
}
