// FlameClusters on the test stack: create, read, patch, and wait for their status and children.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Watch } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { CONFIG_FILE_KEY, CONFIG_HASH_ANNOTATION, FLAME_CLUSTER_KIND, FLAME_CLUSTER_LABEL, FLAME_CLUSTER_PLURAL, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { OUTCOME_ANNOTATION } from '../../devstack/simulators/simulator.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { eventually, eventuallyMatches, kubeConfig } from './env.ts';

const objects = () => new CustomObjects(kubeConfig());
const FC = { group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL };
export const CORE = (plural: 'pods' | 'services' | 'configmaps') => ({ group: '', version: 'v1', plural });

/** The README's example, renamed and with its replica count, in a namespace. */
export function flameExample(namespace: string, name: string, replicas = 3): FlameCluster {
  const fc = parse(readFileSync(new URL('../../examples/flame-cluster.yaml', import.meta.url), 'utf8')) as FlameCluster;
  fc.metadata = { name, namespace };
  fc.spec.executorManager.replicas = replicas;
  return fc;
}

export async function createFlameCluster(fc: FlameCluster): Promise<FlameCluster> {
  return (await objects().apply({ ...FC, namespace: fc.metadata.namespace!, name: fc.metadata.name }, fc as unknown as AnyObject, 'flame-e2e')) as unknown as FlameCluster;
}

/** The API server's refusal of `fc` at admission (its Status message), or undefined when it was stored. */
export async function admissionError(fc: FlameCluster): Promise<string | undefined> {
  try {
    await createFlameCluster(fc);
    return undefined;
  } catch (err) {
    return classifyKubeError(err).detail;
  }
}

export async function getFlameCluster(namespace: string, name: string): Promise<FlameCluster | undefined> {
  return (await objects().get({ ...FC, namespace, name })) as unknown as FlameCluster | undefined;
}

export async function patchFlameCluster(namespace: string, name: string, patch: object): Promise<void> {
  await objects().mergePatch({ ...FC, namespace, name }, patch);
}

export async function deleteFlameCluster(namespace: string, name: string): Promise<void> {
  await objects().delete({ ...FC, namespace, name });
}

export function waitForFlameCluster(namespace: string, name: string, what: string, check: (fc: FlameCluster) => boolean, timeoutMs = 60_000): Promise<FlameCluster> {
  return eventuallyMatches(`FlameCluster ${name}: ${what}`, () => getFlameCluster(namespace, name), check, timeoutMs);
}

/** The status describes the current spec (observedGeneration caught up) and says `state`, with these ready counts. */
export function settled(state: 'Pending' | 'Running' | 'Failed', ready?: { sessionManager?: number; executors?: number }) {
  return ({ metadata, status }: FlameCluster): boolean =>
    status !== undefined &&
    status.observedGeneration === metadata.generation &&
    status.state === state &&
    (ready?.sessionManager === undefined || status.sessionManager?.ready === ready.sessionManager) &&
    (ready?.executors === undefined || status.executorManager?.ready === ready.executors);
}

/** Creates the cluster and waits until it runs with every executor ready. */
export async function runningFlameCluster(fc: FlameCluster): Promise<FlameCluster> {
  await createFlameCluster(fc);
  const { namespace, name } = fc.metadata;
  return waitForFlameCluster(namespace!, name, 'Running with every executor ready', settled('Running', { sessionManager: 1, executors: fc.spec.executorManager.replicas }));
}

/** The children of one cluster, of one type, by the label they all carry, sorted by name. */
export async function childrenOf(namespace: string, cluster: string, plural: 'pods' | 'services' | 'configmaps'): Promise<AnyObject[]> {
  const items = await objects().list({ ...CORE(plural), namespace, labelSelector: `${FLAME_CLUSTER_LABEL}=${cluster}` });
  return items.sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

/** Every pod of the namespace, whoever made it, sorted by name. */
export async function allPods(namespace: string): Promise<AnyObject[]> {
  const items = await objects().list({ ...CORE('pods'), namespace });
  return items.sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

export async function getChild(namespace: string, plural: 'pods' | 'services' | 'configmaps', name: string): Promise<AnyObject | undefined> {
  return objects().get({ ...CORE(plural), namespace, name });
}

export async function patchChild(namespace: string, plural: 'pods' | 'services' | 'configmaps', name: string, patch: object): Promise<void> {
  await objects().mergePatch({ ...CORE(plural), namespace, name }, patch);
}

export async function deleteChild(namespace: string, plural: 'pods' | 'services' | 'configmaps', name: string): Promise<void> {
  await objects().delete({ ...CORE(plural), namespace, name });
}

/** Tells the pod-readiness simulator (the stand-in kubelet) how this pod ends: `fail: <message>`, `ready` or `hold`. */
export async function simulatePod(namespace: string, name: string, outcome: string): Promise<void> {
  await patchChild(namespace, 'pods', name, { metadata: { annotations: { [OUTCOME_ANNOTATION]: outcome } } });
}

export const namesOf = (items: AnyObject[]) => items.map((o) => o.metadata!.name!);

/** The pod names a cluster with `replicas` executors should have, sorted as `childrenOf` sorts them. */
export function podNames(cluster: string, replicas: number): string[] {
  return [...Array.from({ length: replicas }, (_, i) => `${cluster}-executor-manager-${i}`), `${cluster}-session-manager`].sort();
}

/** Pod name → uid. */
export function uidsOf(pods: AnyObject[]): Record<string, string> {
  return Object.fromEntries(pods.map((p) => [p.metadata!.name!, p.metadata!.uid!]));
}

const isReady = (pod: AnyObject) => {
  const status = pod.status as { phase?: string; conditions?: { type: string; status: string }[] } | undefined;
  return status?.phase === 'Running' && !!status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
};

/**
 * Waits until the cluster's pods are exactly `names` (none terminating), every one ready, and `check`
 * holds for them; returns them sorted by name.
 */
export async function waitForPods(namespace: string, cluster: string, names: string[], what: string, check: (pods: AnyObject[]) => boolean = () => true, timeoutMs = 60_000): Promise<AnyObject[]> {
  return eventually(`pods of ${cluster}: ${what}`, async () => {
    const pods = await childrenOf(namespace, cluster, 'pods');
    const same = JSON.stringify(namesOf(pods)) === JSON.stringify([...names].sort());
    return same && pods.every((p) => !p.metadata?.deletionTimestamp && isReady(p)) && check(pods) ? pods : undefined;
  }, timeoutMs);
}

/** The config hash pods carry: the first 8 bytes of the SHA-256 of flame-cluster.yaml, in hex (seed 004, research 3a). */
export function configHashOf(configMap: AnyObject): string {
  const text = (configMap.data as Record<string, string>)[CONFIG_FILE_KEY]!;
  return createHash('sha256').update(text).digest().subarray(0, 8).toString('hex');
}

export const configHashAnnotation = (pod: AnyObject) => pod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION];

/** The Temporal workflow that reconciles this incarnation of the cluster. */
export function flameWorkflowId(fc: FlameCluster): string {
  return workflowIdFor(FLAME_CLUSTER_KIND, { namespace: fc.metadata.namespace!, name: fc.metadata.name, uid: fc.metadata.uid! });
}

export interface PodEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  name: string;
  uid: string;
}

export interface PodEvents {
  /** Every pod event of the cluster since the watch started, in the API server's order. */
  readonly events: PodEvent[];
  /** Names of deleted pods, in the order they were deleted. */
  deleted(): string[];
  /** Names of created pods, in the order they were created. */
  added(): string[];
  stop(): void;
}

/** A watch on one cluster's pods, recording their events in the order the API server made them, from the moment it returns. */
export async function watchPods(namespace: string, cluster: string, onEvent: (e: PodEvent) => void = () => {}): Promise<PodEvents> {
  const list = await objects().listRaw({ ...CORE('pods'), namespace }, { labelSelector: `${FLAME_CLUSTER_LABEL}=${cluster}` });
  const events: PodEvent[] = [];
  let error: unknown;
  const abort = await new Watch(kubeConfig()).watch(
    `/api/v1/namespaces/${namespace}/pods`,
    { labelSelector: `${FLAME_CLUSTER_LABEL}=${cluster}`, resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: false },
    (type: string, pod: AnyObject) => {
      if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
      const event = { type, name: pod.metadata!.name!, uid: pod.metadata!.uid! } as PodEvent;
      events.push(event);
      onEvent(event);
    },
    (err: unknown) => {
      if (err && (err as { name?: string }).name !== 'AbortError') error = err;
    },
  );
  const names = (type: PodEvent['type']) => () => {
    if (error) throw new Error(`pod watch of ${cluster} failed: ${String(error)}`);
    return events.filter((e) => e.type === type).map((e) => e.name);
  };
  return { events, deleted: names('DELETED'), added: names('ADDED'), stop: () => abort.abort() };
}
