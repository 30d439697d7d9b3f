import type { KubeConfig } from '@kubernetes/client-node';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { CONFIG_HASH_ANNOTATION, FLAME_CLUSTER_KIND, FLAME_CLUSTER_LABEL, FLAME_CLUSTER_PLURAL, FLAME_FIELD_MANAGER, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import type { FlameCluster, FlameClusterStatus } from '../../api/flame/types.ts';
import { validateFlameCluster } from '../../api/flame/validate.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { planPods } from '../../render/flame/pod-plan.ts';
import { renderFlameCluster } from '../../render/flame/render.ts';
import { flameStatus } from '../../render/flame/status.ts';
import type { FlameActivities } from '../../contract/flame-activities.ts';
import { KindClient } from '../kind/kind-client.ts';

/** On the ConfigMap: how many times the rendered configuration changed, reported as `status.configGeneration`. */
const CONFIG_GENERATION_ANNOTATION = 'flame.xflops.io/config-generation';
const PODS = { group: '', version: 'v1', plural: 'pods' } as const;
const SERVICES = { group: '', version: 'v1', plural: 'services' } as const;
const CONFIG_MAPS = { group: '', version: 'v1', plural: 'configmaps' } as const;

export interface FlameActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: the cluster and its pods come from their caches when those can answer. */
  informers?: InformerSet;
  /** Our own child write, as stored: its watch echo wakes nobody (see `OwnerSignals.wrote`). */
  wrote?: (type: string, stored: AnyObject) => void;
}

const FLAME_CLUSTER = { group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL, kind: FLAME_CLUSTER_KIND };
const nameOf = (o: AnyObject) => o.metadata?.name ?? '';

export function createFlameActivities(deps: FlameActivityDeps): FlameActivities {
  const clusters = new KindClient<FlameCluster>(FLAME_CLUSTER, { kc: deps.kc, informers: deps.informers, fieldManager: FLAME_FIELD_MANAGER });
  const { objects } = clusters;

  /** The cluster's pods or Services: from the watched, label-selected cache when it is filled, else listed. */
  const childrenOf = async (collection: typeof PODS | typeof SERVICES, ref: ReadRef): Promise<AnyObject[]> => {
    const cached = deps.informers?.selection({ ...collection, namespace: ref.namespace }, FLAME_CLUSTER_LABEL);
    const all = cached ?? (await kubeCall(`list ${collection.plural}`, () => objects.list({ ...collection, namespace: ref.namespace, labelSelector: `${FLAME_CLUSTER_LABEL}=${ref.name}` })));
    return all.filter((p) => p.metadata?.labels?.[FLAME_CLUSTER_LABEL] === ref.name && p.metadata?.ownerReferences?.some((o) => o.uid === ref.uid && o.controller));
  };
  const podsOf = (ref: ReadRef) => childrenOf(PODS, ref);

  const apply = async (collection: typeof SERVICES | typeof CONFIG_MAPS | typeof PODS, body: AnyObject): Promise<AnyObject> => {
    const ref = { ...collection, namespace: body.metadata!.namespace!, name: nameOf(body) };
    const stored = await kubeCall(`apply ${collection.plural} ${ref.name}`, () => objects.apply(ref, body, FLAME_FIELD_MANAGER));
    deps.wrote?.(collection.plural, stored);
    return stored;
  };

  return {
    async applyFlameCluster(ref) {
      const cluster = await clusters.read(ref);
      if (!cluster) return { found: false, changes: [] };
      const seen = { resourceVersion: cluster.metadata.resourceVersion, generation: cluster.metadata.generation };
      if (cluster.metadata.deletionTimestamp) return { found: true, deleting: true, ...seen, changes: [] };
      if (cluster.metadata.annotations?.[PAUSE_ANNOTATION] === 'true') return { found: true, paused: true, ...seen, changes: [] };
      const validation = validateFlameCluster(cluster);
      if (!validation.valid) {
        clusters.refuse(ref, validation.message);
        return { found: true, ...seen, invalid: validation.message, changes: [] };
      }
      const children = renderFlameCluster(validation.cluster);
      const changes: string[] = [];

      // Read first: when the ConfigMap is gone, the pods tell which configuration was last written.
      const existing = await podsOf(ref);

      // The configuration first: pods started from now on mount what it says.
      const configRef = { ...CONFIG_MAPS, namespace: ref.namespace, name: nameOf(children.configMap) };
      const current = await kubeCall('read ConfigMap', () => objects.get(configRef));
      const { configChanged, configGeneration } = configVersion(current, existing, cluster, children.configHash);
      const annotations = { ...children.configMap.metadata?.annotations, [CONFIG_HASH_ANNOTATION]: children.configHash, [CONFIG_GENERATION_ANNOTATION]: String(configGeneration) };
      await apply(CONFIG_MAPS, { ...children.configMap, metadata: { ...children.configMap.metadata, annotations } });
      if (!current) changes.push(`created ConfigMap ${configRef.name} (config generation ${configGeneration})`);
      else if (configChanged) changes.push(`updated ConfigMap ${configRef.name} (config generation ${configGeneration})`);

      // Listed (or cached) like the pods, not read one by one: a cache that lags an edit only delays its repair to the edit's own wake-up.
      const services = new Map((await childrenOf(SERVICES, ref)).map((s) => [nameOf(s), s]));
      for (const service of children.services) {
        const serviceRef = { ...SERVICES, namespace: ref.namespace, name: nameOf(service) };
        const live = services.get(serviceRef.name);
        const repair = serviceRepair(live, service);
        if (repair) {
          const stored = await kubeCall(`restore Service ${serviceRef.name}`, () => objects.mergePatch(serviceRef, repair));
          deps.wrote?.(SERVICES.plural, stored);
          changes.push(`restored Service ${serviceRef.name} (edited)`);
        }
        // Server-side apply every pass: a deleted Service comes back, an edit of a field we own is put back.
        await apply(SERVICES, service);
        if (!live) changes.push(`created Service ${serviceRef.name}`);
      }

      // Deletes name the incarnation they mean: a cache that lags must not delete a pod already replaced.
      const uidOf = new Map(existing.map((p) => [nameOf(p), p.metadata?.uid]));
      const deletePod = (name: string) => kubeCall(`delete pod ${name}`, () => objects.remove({ ...PODS, namespace: ref.namespace, name }, uidOf.get(name)));
      const plan = planPods([children.sessionManagerPod, ...children.executorPods], existing);
      for (const name of plan.remove) {
        const outcome = await deletePod(name);
        if (outcome !== 'absent') changes.push(`deleted pod ${name} (not requested)`);
      }
      const waiting = [...plan.waiting];
      for (const desired of plan.recreate) {
        const name = nameOf(desired);
        const outcome = await deletePod(name);
        // A pod on a node terminates for its grace period: its replacement follows once it is gone.
        if (outcome === 'deleting') {
          waiting.push(name);
          changes.push(`deleting stale pod ${name}`);
          continue;
        }
        await apply(PODS, desired);
        changes.push(`recreated pod ${name} (configuration or image changed)`);
      }
      for (const desired of plan.create) {
        await apply(PODS, desired);
        changes.push(`created pod ${nameOf(desired)}`);
      }
      if (changes.length > 0) clusters.post(ref, { type: 'Normal', reason: 'Reconciled', message: changes.join('; ') });
      return {
        found: true,
        ...seen,
        configGeneration,
        changes,
        ...(waiting.length > 0 ? { waitingFor: `pod${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')} to terminate` } : {}),
      };
    },

    async reportFlameStatus(ref, input) {
      const cluster = await clusters.require(ref);
      const status: FlameClusterStatus = input.invalid
        ? { ...emptyStatus(cluster), state: 'Failed', message: input.invalid, observedGeneration: cluster.metadata.generation ?? 0 }
        : flameStatus(cluster, await podsOf(ref), input.configGeneration ?? cluster.status?.configGeneration ?? 0);
      // The workflow is the only writer of this status: unchanged (exactly) means nothing to write.
      await clusters.applyStatus(ref, cluster, status, 'exact');
      return status;
    },
  };
}

/**
 * Whether the rendered configuration differs from the last one written, and its generation. The
 * ConfigMap records both (annotations); when it is gone (deleted by hand), the pods' config-hash and the
 * status's configGeneration say what was last written, so recreating the same configuration is no change.
 */
function configVersion(current: AnyObject | undefined, pods: AnyObject[], cluster: FlameCluster, hash: string): { configChanged: boolean; configGeneration: number } {
  const annotations = current?.metadata?.annotations;
  const previousHash = current ? annotations?.[CONFIG_HASH_ANNOTATION] : pods.map((p) => p.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).find(Boolean);
  const previousGeneration = current ? Number(annotations?.[CONFIG_GENERATION_ANNOTATION] ?? 0) : (cluster.status?.configGeneration ?? 0);
  const configChanged = previousHash !== hash;
  return { configChanged, configGeneration: configChanged ? previousGeneration + 1 : previousGeneration };
}

/** The parts of a Service's spec we render; anything else (clusterIP, defaults) is the API server's. */
const SERVICE_FIELDS = ['type', 'selector', 'ports'] as const;

/**
 * A merge patch that puts back a Service edited by someone else, or undefined when it is as rendered.
 * Server-side apply alone retakes the fields we own but keeps what another manager added beside them:
 * a changed port stays next to ours (two ports named alike, which the API server refuses, and every pass
 * would fail) and an added selector key stays (the Service then selects nothing). So these fields are
 * replaced whole: the lists by value, the selector with every key we do not render removed.
 */
function serviceRepair(live: AnyObject | undefined, desired: AnyObject): object | undefined {
  if (!live) return undefined;
  const have = (live.spec ?? {}) as Record<string, unknown>;
  const want = (desired.spec ?? {}) as Record<string, unknown>;
  if (SERVICE_FIELDS.every((field) => jsonEqual(have[field], want[field]))) return undefined;
  const extraKeys = Object.keys((have.selector ?? {}) as Record<string, string>).map((key) => [key, null]);
  return { spec: { type: want.type, ports: want.ports, selector: { ...Object.fromEntries(extraKeys), ...(want.selector as object) } } };
}

/** Status of a cluster nothing was created for (invalid spec): zero counts, the endpoint it would have. */
function emptyStatus(cluster: FlameCluster): FlameClusterStatus {
  return flameStatus(cluster, [], cluster.status?.configGeneration ?? 0);
}
