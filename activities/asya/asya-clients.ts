import type { KubeConfig } from '@kubernetes/client-node';
import { ASYA_FIELD_MANAGER, ASYNC_ACTOR_KIND, ASYNC_ACTOR_PLURAL, ASYA_GROUP, ASYA_VERSION, KEDA_GROUP, KEDA_VERSION, SCALED_OBJECT_PLURAL } from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import { validateAsyncActor } from '../../api/asya/validate.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject, CustomObjects, ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { kindClient, type KindClient, type KindClientParts } from '../kind/kind-client.ts';
import type { ActorBroker } from './actor-broker.ts';

/** Field manager of the actor's own status (the workload's intent is `asya`, as seed 002 names it). */
const STATUS_MANAGER = 'kubeairunway-asya';
export const CONFIG_MAPS = { group: '', version: 'v1', plural: 'configmaps' };
const ASYNC_ACTOR = { group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL, kind: ASYNC_ACTOR_KIND };

export const workloadResource = (kind: string, namespace: string, name: string): ResourceRef => ({ group: 'apps', version: 'v1', plural: kind === 'StatefulSet' ? 'statefulsets' : 'deployments', namespace, name });
export const scaledObjectResource = (namespace: string, name: string): ResourceRef => ({ group: KEDA_GROUP, version: KEDA_VERSION, plural: SCALED_OBJECT_PLURAL, namespace, name });

export interface AsyaActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: the actor comes from their cache when that is new enough. */
  informers?: InformerSet;
  /** Queues on the broker; undefined when no broker is configured (queues are then not managed). */
  broker?: ActorBroker;
}

/** What the actor's activities share: its kind's client (and through it every object call), the broker. */
export interface AsyaClients extends AsyaActivityDeps {
  actors: KindClient<AsyncActor>;
  objects: CustomObjects;
}

export function asyaClients(deps: AsyaActivityDeps, parts?: KindClientParts): AsyaClients {
  const actors = kindClient<AsyncActor>(ASYNC_ACTOR, STATUS_MANAGER, deps, parts);
  return { ...deps, actors, objects: actors.objects };
}

/** The actor as validated (defaults filled); an invalid one never gets this far (the assessment stops it). */
export async function validActor(asya: AsyaClients, ref: ReadRef): Promise<AsyncActor> {
  const checked = validateAsyncActor(await asya.actors.require(ref));
  if (!checked.valid) throw asya.actors.invalid(ref, checked.message);
  return { ...checked.actor, metadata: { ...checked.actor.metadata, uid: ref.uid } };
}

/** Server-side apply as field manager `asya`, failing as a classified activity failure. */
export function applyAsAsya(asya: AsyaClients, resource: ResourceRef, body: AnyObject): Promise<AnyObject> {
  return kubeCall(`apply ${resource.plural} ${resource.name}`, () => asya.objects.apply(resource, body, ASYA_FIELD_MANAGER));
}
