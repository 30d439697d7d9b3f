// What to do to turn the pods that exist into the pods a FlameCluster wants, decided by name (pods are
// named, not generated: <name>-session-manager, <name>-executor-manager-<i>). Pure; the caller runs
// the plan. A pod is stale when a container runs another image (pods allow image edits) or when it was
// rendered from another configuration or pod spec (the hash annotations): pod specs are immutable, so
// a stale pod is deleted and created again under the same name.

import { CONFIG_HASH_ANNOTATION, FLAME_CLUSTER_LABEL, SPEC_HASH_ANNOTATION } from '../../api/flame/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { podIndex } from './render.ts';

export interface PodPlan {
  /** Desired pods with no pod of their name: create them. */
  create: AnyObject[];
  /** Desired pods whose existing pod is stale: delete that pod, then create this one. */
  recreate: AnyObject[];
  /** Names of existing executor pods that are not desired (indices >= replicas), highest index first. */
  remove: string[];
  /** Names of desired pods whose old pod is still terminating: nothing can be created under the name yet. */
  waiting: string[];
}

/**
 * `desired`: the rendered pods (session manager and executors). `existing`: the pods found; only those
 * carrying the cluster label count, and pods already terminating are never deleted again.
 */
export function planPods(desired: readonly AnyObject[], existing: readonly AnyObject[]): PodPlan {
  const ours = existing.filter((pod) => pod.metadata?.labels?.[FLAME_CLUSTER_LABEL] !== undefined);
  const byName = new Map(ours.map((pod) => [nameOf(pod), pod]));
  const wanted = new Set(desired.map(nameOf));
  const plan: PodPlan = { create: [], recreate: [], remove: [], waiting: [] };

  for (const pod of desired) {
    const current = byName.get(nameOf(pod));
    if (!current) plan.create.push(pod);
    else if (terminating(current)) plan.waiting.push(nameOf(pod));
    else if (isStale(current, pod)) plan.recreate.push(pod);
  }

  // Only executors beyond the count: a labelled pod without an index is not one we made (a debug pod
  // someone labelled), so it is left alone.
  plan.remove = ours
    .filter((pod) => !wanted.has(nameOf(pod)) && !terminating(pod) && podIndex(pod) !== undefined)
    .sort((a, b) => podIndex(b)! - podIndex(a)!)
    .map(nameOf);
  return plan;
}

/** Whether `current` differs from `desired` in an image, the config hash or the spec hash. */
export function isStale(current: AnyObject, desired: AnyObject): boolean {
  const annotation = (pod: AnyObject, key: string) => pod.metadata?.annotations?.[key];
  if (annotation(current, CONFIG_HASH_ANNOTATION) !== annotation(desired, CONFIG_HASH_ANNOTATION)) return true;
  if (annotation(current, SPEC_HASH_ANNOTATION) !== annotation(desired, SPEC_HASH_ANNOTATION)) return true;
  return imagesOf(current) !== imagesOf(desired);
}

/** Every container's name and image (init containers too), as one comparable string. */
function imagesOf(pod: AnyObject): string {
  const spec = (pod.spec ?? {}) as { initContainers?: unknown; containers?: unknown };
  const list = (value: unknown) => (Array.isArray(value) ? (value as { name?: unknown; image?: unknown }[]) : []);
  const images = [...list(spec.initContainers).map((c) => `init:${String(c.name)}=${String(c.image)}`), ...list(spec.containers).map((c) => `${String(c.name)}=${String(c.image)}`)];
  return JSON.stringify(images.sort());
}

function terminating(pod: AnyObject): boolean {
  return Boolean(pod.metadata?.deletionTimestamp);
}

function nameOf(pod: AnyObject): string {
  return pod.metadata?.name ?? '';
}
