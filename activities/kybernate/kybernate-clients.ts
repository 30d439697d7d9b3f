import type { KubeConfig } from '@kubernetes/client-node';
import { KYBERNATE_FIELD_MANAGER } from '../../api/kybernate/constants.ts';
import type { ResourceRef } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { kindClient, type KindClient, type KindClientParts, type KindObject } from '../kind/kind-client.ts';
import type { KindIdentity } from '../kind/status-write.ts';

/** What each Kybernate kind's activities are made from. */
export interface KybernateActivityDeps {
  kc: KubeConfig;
  informers?: InformerSet;
}

/** A client of one Kybernate kind as field manager `kybernate`; a second kind passes the first's `objects` to share its connection. */
export function kybernateClient<T extends KindObject>(kind: KindIdentity, deps: KybernateActivityDeps, parts?: KindClientParts): KindClient<T> {
  return kindClient<T>(kind, KYBERNATE_FIELD_MANAGER, deps, parts);
}

export const podResource = (namespace: string, name: string): ResourceRef => ({ group: '', version: 'v1', plural: 'pods', namespace, name });
