// Binding mode (ADR-001, research "Asya" 1a): the runtime adapter and the sidecar added to a workload
// someone else owns (KAITO's Deployment, a user's StatefulSet), and taken out again.
//
// Both are server-side apply bodies for field manager `asya`, not patches. An apply body holds only the
// fields we own; `containers` and `volumes` are lists keyed by name, so ours merge next to the owner's
// and the owner's are never sent, never replaced, never raced. Applying the empty body of
// renderUninjection later removes exactly what `asya` owns: our two containers, three volumes, label and
// annotations. Deliberately absent (design holes of the ADR, research 1a):
// - no ownerReference to the actor: garbage collection deletes a dependent only when all its owners are
//   gone, so one would keep KAITO's Deployment alive after its Workspace; the actor's finalizer
//   un-injects instead;
// - no `asya.sh/injected-at` timestamp: it would differ on every apply, making each one a write.
// Pure.

import {
  INJECTED_CONTAINERS,
  INJECTED_VOLUMES,
  MANAGED_BY_LABEL,
  MODE_ANNOTATION,
  MODE_ANNOTATION_VALUES,
  RUNTIME_CONTAINER,
  SOCKET_DIR,
  ASYA_FIELD_MANAGER,
} from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { injectedVolumes, resourcesOf, runtimeCommand, runtimeMounts, runtimeProbes, sidecarContainer, withEnv } from './render-containers.ts';
import { renderScaledObject, type ScaleTarget } from './render-scaled-object.ts';

type Obj = Record<string, unknown>;

/** The workload to inject into: a Deployment or StatefulSet (a Workspace or ModelDeployment resolved to it). */
export interface InjectionTarget {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
}

/**
 * Why an injection must not go ahead: another actor manages the workload, or it already has a container
 * or volume of one of our names that `asya` did not put there (a volume clash counts as a container name
 * conflict: our containers mount those volumes by name). Surfaced as RuntimeInjected=False with this reason.
 */
export type InjectionConflict = 'AlreadyManaged' | 'ContainerNameConflict';

/** The apply body that adds the actor's runtime and sidecar to `target`; `targetURL` becomes ASYA_TARGET_URL. */
export function renderInjection(actor: AsyncActor, target: InjectionTarget, targetURL: string): AnyObject {
  const runtime = actor.spec.runtime;
  if (!runtime) throw new Error(`AsyncActor ${actor.metadata.name} has no spec.runtime: renderInjection is for binding actors`);
  const name = actor.metadata.name;
  const runtimeContainer = {
    name: RUNTIME_CONTAINER,
    image: runtime.image,
    command: runtimeCommand(runtime.pythonExecutable),
    env: withEnv(
      [
        { name: 'ASYA_HANDLER', value: runtime.handler },
        { name: 'ASYA_TARGET_URL', value: targetURL },
        { name: 'ASYA_SOCKET_DIR', value: SOCKET_DIR },
        // The adapter forwards whatever the server answers; upstream's envelope validation is for handlers.
        { name: 'ASYA_ENABLE_VALIDATION', value: 'false' },
      ],
      runtime.env,
    ),
    ...resourcesOf(runtime.resources),
    volumeMounts: runtimeMounts(),
    ...runtimeProbes(),
  };
  return {
    apiVersion: target.apiVersion,
    kind: target.kind,
    metadata: {
      name: target.name,
      namespace: target.namespace,
      labels: { [MANAGED_BY_LABEL]: name },
      annotations: { [MANAGED_BY_LABEL]: name, [MODE_ANNOTATION]: MODE_ANNOTATION_VALUES.Binding },
    },
    spec: { template: { spec: { containers: [runtimeContainer, sidecarContainer(actor)], volumes: injectedVolumes() } } },
  };
}

/** The apply body that releases everything field manager `asya` owns on `target` (nothing of the owner's). */
export function renderUninjection(target: InjectionTarget): AnyObject {
  return { apiVersion: target.apiVersion, kind: target.kind, metadata: { name: target.name, namespace: target.namespace } };
}

/**
 * Whether injecting `actor` into the live `target` would take over something that is not ours. Whose a
 * container or volume is comes from `metadata.managedFields` (does manager `asya` own the entry?) when
 * the object has them; without them (a manifest read offline) our managed-by label decides.
 */
export function injectionConflict(target: AnyObject, actor: string): InjectionConflict | undefined {
  const label = target.metadata?.labels?.[MANAGED_BY_LABEL];
  const annotation = target.metadata?.annotations?.[MANAGED_BY_LABEL];
  if ((label !== undefined && label !== actor) || (annotation !== undefined && annotation !== actor)) return 'AlreadyManaged';
  const ours = ownership(target, label === actor);
  const taken = (list: 'containers' | 'volumes', reserved: readonly string[]) => names(podSpec(target)[list]).some((n) => reserved.includes(n) && !ours(`f:${list}`, n));
  if (taken('containers', INJECTED_CONTAINERS) || taken('volumes', INJECTED_VOLUMES)) return 'ContainerNameConflict';
  return undefined;
}

/** Whether `target`'s pod template holds both our containers and all three volumes (else re-inject). */
export function isInjected(target: AnyObject): boolean {
  const spec = podSpec(target);
  const containers = names(spec.containers);
  const volumes = names(spec.volumes);
  return INJECTED_CONTAINERS.every((n) => containers.includes(n)) && INJECTED_VOLUMES.every((n) => volumes.includes(n));
}

/**
 * The ScaledObject of a binding actor. For a ModelDeployment the scale target is the ModelDeployment
 * itself (its /scale subresource sets spec.scaling.replicas, and the provider carries the count down);
 * scaling the provider's Deployment would fight the provider for its replicas. For a Deployment or
 * StatefulSet it is the workload.
 */
export function renderBindingScaledObject(actor: AsyncActor, scaleTarget: ScaleTarget): AnyObject {
  return renderScaledObject(actor, scaleTarget);
}

function podSpec(target: AnyObject): Obj {
  const spec = target.spec;
  const template = isObject(spec) ? spec.template : undefined;
  const pod = isObject(template) ? template.spec : undefined;
  return isObject(pod) ? pod : {};
}

function names(list: unknown): string[] {
  return Array.isArray(list) ? list.flatMap((item) => (isObject(item) && typeof item.name === 'string' ? [item.name] : [])) : [];
}

/** A test of whether `asya` owns the named entry of a pod-spec list (`f:containers` or `f:volumes`). */
function ownership(target: AnyObject, labelledOurs: boolean): (list: string, name: string) => boolean {
  const managedFields = (target.metadata as { managedFields?: unknown } | undefined)?.managedFields;
  if (!Array.isArray(managedFields)) return () => labelledOurs;
  const ours = managedFields.filter((entry) => isObject(entry) && entry.manager === ASYA_FIELD_MANAGER);
  return (list, name) =>
    ours.some((entry) => {
      const fields = path(entry.fieldsV1, ['f:spec', 'f:template', 'f:spec', list]);
      return isObject(fields) && `k:${JSON.stringify({ name })}` in fields;
    });
}

function path(value: unknown, keys: string[]): unknown {
  return keys.reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), value);
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
