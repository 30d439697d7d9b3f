import { ASYA_FINALIZER, ASYA_GROUP, ASYA_VERSION, ASYNC_ACTOR_KIND, ASYNC_ACTOR_PLURAL, MANAGED_BY_LABEL } from '../../api/asya/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { specFingerprint } from '../fingerprint.ts';
import type { WatchedKind } from '../watched-kind.ts';
import { kindIdentity } from './kind-identity.ts';

/**
 * AsyncActors (seed 002). Their workloads carry the label `asya.sh/managed-by=<actor>`: the ones they
 * own (standalone) and the ones another controller owns that they are bound to, which have no
 * ownerReference of ours (it would keep them alive past their real owner), hence the owner by label.
 * A change there (the owner stripping our containers, readiness) wakes the actor.
 */
export const asyncActorKind: WatchedKind = {
  ...kindIdentity(ASYNC_ACTOR_KIND, 'asyncActorWorkflow', { group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL }),
  fingerprint: specFingerprint,
  isNew: (actor) => !actor.metadata?.finalizers?.includes(ASYA_FINALIZER),
  children: [
    { group: 'apps', version: 'v1', plural: 'deployments', labelSelector: MANAGED_BY_LABEL, ownerLabel: MANAGED_BY_LABEL },
    { group: 'apps', version: 'v1', plural: 'statefulsets', labelSelector: MANAGED_BY_LABEL, ownerLabel: MANAGED_BY_LABEL },
  ],
  /**
   * An actor in Conflict waits for the workload's holder, another actor, to let go. The holder lets go
   * when it is deleted: its cleanup takes its containers and label out of the workload, then its
   * finalizer goes and the object with it. That removal wakes the actors of its namespace that are in
   * Conflict, which bind at once instead of at their next resync.
   */
  related({ watch, wakeWhere, namespaces }) {
    const inConflict = (actor: AnyObject) => (actor.status as { status?: string } | undefined)?.status === 'Conflict';
    for (const namespace of namespaces) {
      watch(`${ASYNC_ACTOR_KIND} holders`, { group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL, namespace }, {
        remove: (holder) =>
          wakeWhere(`${ASYNC_ACTOR_KIND} ${holder.metadata?.namespace}/${holder.metadata?.name} deleted`, (actor) => actor.metadata?.namespace === holder.metadata?.namespace && inConflict(actor)),
      });
    }
  },
};
