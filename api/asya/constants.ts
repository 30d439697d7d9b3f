// Names of the AsyncActor kind (seed 002, research "Asya" 1a): its API group, the finalizer, the labels
// and annotations it puts on what it creates or binds to, the container and volume names it injects,
// and the queue names. Kept apart from api/constants.ts: Asya is its own API group, not kubeairunway.ai.
// Pure (no imports beyond api/common/), so workflow code, the CRD schema and the activities all agree on them.

import { kindNames } from '../common/kind-names.ts';

export const ASYNC_ACTOR = kindNames({ group: 'asya.sh', version: 'v1alpha1', kind: 'AsyncActor', plural: 'asyncactors', singular: 'asyncactor', shortNames: ['asya', 'asyas'] });
export const { group: ASYA_GROUP, version: ASYA_VERSION, apiVersion: ASYA_API_VERSION, kind: ASYNC_ACTOR_KIND, plural: ASYNC_ACTOR_PLURAL } = ASYNC_ACTOR;

/** On the AsyncActor while it may still have to un-inject a foreign workload or delete its queue. */
export const ASYA_FINALIZER = 'asya.sh/finalizer';

/**
 * `asya.sh/managed-by=<actor>`, both a label and an annotation on every workload an actor creates or
 * binds to. The label is what watches select on (annotations cannot be selected server-side); the
 * annotation is what the ADR specifies, kept for tools that read it.
 */
export const MANAGED_BY_LABEL = 'asya.sh/managed-by';
/** `standalone` or `binding`, on the workload. */
export const MODE_ANNOTATION = 'asya.sh/mode';
/**
 * From the ADR, but never part of an applied body: a timestamp there makes every server-side apply a
 * change (and a rollout-free write) even when nothing else changed. Written once, by a separate patch,
 * if at all.
 */
export const INJECTED_AT_ANNOTATION = 'asya.sh/injected-at';
/** On the ScaledObject: the actor generation it was rendered from. */
export const SOURCE_GENERATION_ANNOTATION = 'asya.sh/source-generation';
/**
 * On the pods of a standalone workload (and in its selector): the actor they run. Foreign workloads
 * never get it: their selector and pod labels belong to their owner.
 */
export const ACTOR_LABEL = 'asya.sh/actor';

/**
 * Field manager of every server-side apply for AsyncActors. In binding mode it is what lets an apply of
 * an empty intent remove exactly the containers, volumes, label and annotations we added.
 */
export const ASYA_FIELD_MANAGER = 'asya';

export const RUNTIME_CONTAINER = 'asya-runtime';
export const SIDECAR_CONTAINER = 'asya-sidecar';

/** The injected volumes: the runtime/sidecar socket, a scratch /tmp, and the runtime script. */
export const SOCKET_VOLUME = 'socket-dir';
export const TMP_VOLUME = 'tmp';
export const RUNTIME_VOLUME = 'asya-runtime';
export const INJECTED_VOLUMES: readonly string[] = [SOCKET_VOLUME, TMP_VOLUME, RUNTIME_VOLUME];
export const INJECTED_CONTAINERS: readonly string[] = [RUNTIME_CONTAINER, SIDECAR_CONTAINER];

/** The shared, unowned ConfigMap holding the runtime script, one per namespace. */
export const RUNTIME_CONFIG_MAP = 'asya-runtime';
export const RUNTIME_SCRIPT_KEY = 'asya_runtime.py';
export const RUNTIME_SCRIPT_PATH = `/opt/asya/${RUNTIME_SCRIPT_KEY}`;
export const SOCKET_DIR = '/var/run/asya';

export type Mode = 'Standalone' | 'Binding';
/** MODE_ANNOTATION's values. */
export const MODE_ANNOTATION_VALUES: Readonly<Record<Mode, string>> = { Standalone: 'standalone', Binding: 'binding' };

/** The actor's name, from the name itself or from the actor object. */
type ActorName = string | { metadata: { name: string } };
const nameOf = (actor: ActorName): string => (typeof actor === 'string' ? actor : actor.metadata.name);

/** The actor's queue: `asya-<actor>`. */
export function queueName(actor: ActorName): string {
  return `asya-${nameOf(actor)}`;
}

/** Where the broker dead-letters what the actor's queue rejects: `asya-<actor>-dlq`. */
export function deadLetterQueueName(actor: ActorName): string {
  return `${queueName(actor)}-dlq`;
}

/**
 * Connection details of a transport are the namespace's, not the actor's: the sidecar takes its
 * environment from the Secret `asya-<transport>` (e.g. ASYA_RABBITMQ_URL) and KEDA authenticates through
 * the TriggerAuthentication of the same name (rabbitmq: `host`; sqs: `awsRegion` and credentials or pod
 * identity). Both are created once per namespace by whoever runs the broker.
 */
export function transportConnectionName(transport: string): string {
  return `asya-${transport}`;
}

/** `status.resolvedTarget` and the Target printer column: `Kind/namespace/name`. */
export function formatTarget(target: { kind: string; namespace?: string; name: string }): string {
  return `${target.kind}/${target.namespace ?? ''}/${target.name}`;
}

/** KEDA's kinds the actors use: the ScaledObject we write, and the TriggerAuthentication it names. */
export const SCALED_OBJECT = kindNames({ group: 'keda.sh', version: 'v1alpha1', kind: 'ScaledObject', plural: 'scaledobjects' });
export const { group: KEDA_GROUP, version: KEDA_VERSION, apiVersion: KEDA_API_VERSION, kind: SCALED_OBJECT_KIND, plural: SCALED_OBJECT_PLURAL } = SCALED_OBJECT;
export const TRIGGER_AUTHENTICATION_KIND = 'TriggerAuthentication';
export const TRIGGER_AUTHENTICATION_PLURAL = 'triggerauthentications';
