import { ASYA_FINALIZER } from '../../api/asya/constants.ts';
import type { AsyaActivities } from '../../contract/asya-activities.ts';
import { applyStandalone } from './apply-standalone.ts';
import { assessAsyncActor } from './assess-async-actor.ts';
import { asyaClients, validActor, type AsyaActivityDeps, type AsyaClients } from './asya-clients.ts';
import { injectRuntime } from './inject-runtime.ts';
import { releaseActor } from './release-actor.ts';
import { resolveTarget } from './resolve-target.ts';
import type { KindClientParts } from '../kind/kind-client.ts';

export type { AsyaActivityDeps } from './asya-clients.ts';

/** Declares the actor's queues when this controller manages them: another transport's, or no broker configured, is said as the outcome. */
export function ensureActorQueues(asya: AsyaClients): AsyaActivities['ensureActorQueues'] {
  return async function ensureActorQueues(ref) {
    const actor = await validActor(asya, ref);
    if (actor.spec.transport !== 'rabbitmq') return { ready: true, reason: 'NotManaged', message: `Transport '${actor.spec.transport}': its queues are managed outside this controller` };
    if (!asya.broker) return { ready: false, reason: 'BrokerNotConfigured', message: 'No RabbitMQ broker is configured for the controller: the queues are not declared' };
    return asya.broker.declare(actor.metadata.name);
  };
}

/** The AsyncActor's side effects, each a named function of the clients they share. */
export function createAsyaActivities(deps: AsyaActivityDeps, parts?: KindClientParts): AsyaActivities {
  const asya = asyaClients(deps, parts);
  return {
    assessAsyncActor: assessAsyncActor(asya),
    ensureActorQueues: ensureActorQueues(asya),
    applyStandalone: applyStandalone(asya),
    resolveActorTarget: async (ref) => resolveTarget(asya.objects, asya.kc, asya.informers, await validActor(asya, ref)),
    injectRuntime: injectRuntime(asya),
    writeActorStatus: async (ref, input) => {
      await asya.actors.writeConditions(ref, await asya.actors.require(ref), input, input.conditions);
    },
    releaseActor: releaseActor(asya),
    removeActorFinalizer: (ref) => asya.actors.setFinalizer(ref, ASYA_FINALIZER, false),
    recordActorEvent: (ref, event) => asya.actors.record(ref, event),
  };
}
