import type { KubeConfig } from '@kubernetes/client-node';
import { KYBERNATE_FIELD_MANAGER } from '../../api/kybernate/constants.ts';
import type { CustomObjects, ResourceRef } from '../../kube/custom-objects.ts';
import type { EventRecorder } from '../../kube/events.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { KindClient, type KindObject } from '../kind/kind-client.ts';
import type { KindIdentity } from '../kind/status-write.ts';

/** What each Kybernate kind's activities are made from. */
export interface KybernateActivityDeps {
  kc: KubeConfig;
  informers?: InformerSet;
}

/** The shared parts a test hands in instead of the ones built on `kc`. */
export interface KybernateClientParts {
  objects?: CustomObjects;
  recorder?: EventRecorder;
}

/** A client of one Kybernate kind as field manager `kybernate`; a second kind passes the first's `objects` to share its connection. */
export function kybernateClient<T extends KindObject>(kind: KindIdentity, deps: KybernateActivityDeps, parts: KybernateClientParts = {}): KindClient<T> {
  return new KindClient<T>(kind, { kc: deps.kc, informers: deps.informers, fieldManager: KYBERNATE_FIELD_MANAGER, ...parts });
}

export const podResource = (namespace: string, name: string): ResourceRef => ({ group: '', version: 'v1', plural: 'pods', namespace, name });
