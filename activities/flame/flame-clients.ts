import type { KubeConfig } from '@kubernetes/client-node';
import { FLAME_CLUSTER_KIND, FLAME_CLUSTER_LABEL, FLAME_CLUSTER_PLURAL, FLAME_FIELD_MANAGER, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject, CustomObjects } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { kindClient, type KindClient, type KindClientParts } from '../kind/kind-client.ts';

export const PODS = { group: '', version: 'v1', plural: 'pods' } as const;
export const SERVICES = { group: '', version: 'v1', plural: 'services' } as const;
export const CONFIG_MAPS = { group: '', version: 'v1', plural: 'configmaps' } as const;
const FLAME_CLUSTER = { group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL, kind: FLAME_CLUSTER_KIND };

export const nameOf = (o: AnyObject): string => o.metadata?.name ?? '';

export interface FlameActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: the cluster and its pods come from their caches when those can answer. */
  informers?: InformerSet;
  /** Our own child write, as stored: its watch echo wakes nobody (see `OwnerSignals.wrote`). */
  wrote?: (type: string, stored: AnyObject) => void;
}

/** What the cluster's activities share: its kind's client (and through it every object call). */
export interface FlameClients extends FlameActivityDeps {
  clusters: KindClient<FlameCluster>;
  objects: CustomObjects;
}

export function flameClients(deps: FlameActivityDeps, parts?: KindClientParts): FlameClients {
  const clusters = kindClient<FlameCluster>(FLAME_CLUSTER, FLAME_FIELD_MANAGER, deps, parts);
  return { ...deps, clusters, objects: clusters.objects };
}

/** The cluster's pods or Services: from the watched, label-selected cache when it is filled, else listed. */
export async function childrenOf(flame: FlameClients, collection: typeof PODS | typeof SERVICES, ref: ReadRef): Promise<AnyObject[]> {
  const cached = flame.informers?.selection({ ...collection, namespace: ref.namespace }, FLAME_CLUSTER_LABEL);
  const all = cached ?? (await kubeCall(`list ${collection.plural}`, () => flame.objects.list({ ...collection, namespace: ref.namespace, labelSelector: `${FLAME_CLUSTER_LABEL}=${ref.name}` })));
  return all.filter((p) => p.metadata?.labels?.[FLAME_CLUSTER_LABEL] === ref.name && p.metadata?.ownerReferences?.some((o) => o.uid === ref.uid && o.controller));
}

/** Server-side apply of one child, told to `wrote` as stored. */
export async function applyChild(flame: FlameClients, collection: typeof SERVICES | typeof CONFIG_MAPS | typeof PODS, body: AnyObject): Promise<AnyObject> {
  const ref = { ...collection, namespace: body.metadata!.namespace!, name: nameOf(body) };
  const stored = await kubeCall(`apply ${collection.plural} ${ref.name}`, () => flame.objects.apply(ref, body, FLAME_FIELD_MANAGER));
  flame.wrote?.(collection.plural, stored);
  return stored;
}
