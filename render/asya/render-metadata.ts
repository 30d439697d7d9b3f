// Metadata shared by what an AsyncActor renders: the managed-by label, and the controller reference that
// lets Kubernetes' garbage collector remove an owned child with its actor.

import { ASYA_API_VERSION, ASYNC_ACTOR_KIND, MANAGED_BY_LABEL } from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import type { OwnerReference } from '../../kube/custom-objects.ts';

export function managedByLabels(actor: AsyncActor): Record<string, string> {
  return { [MANAGED_BY_LABEL]: actor.metadata.name };
}

/** Without a uid (an offline render) the reference leaves it out rather than invent one. */
export function controllerReference(actor: AsyncActor): OwnerReference {
  const { name, uid } = actor.metadata;
  return { apiVersion: ASYA_API_VERSION, kind: ASYNC_ACTOR_KIND, name, ...(uid ? { uid } : {}), controller: true, blockOwnerDeletion: true };
}

/** `namespace` when the actor has one (an offline render may not). */
export function namespaceOf(actor: AsyncActor): { namespace?: string } {
  return actor.metadata.namespace ? { namespace: actor.metadata.namespace } : {};
}
