// AsyncActor manifests in the offline commands: `validate` reports the workflow's own validation, and
// `render` prints what the workflow would apply. Standalone: the runtime ConfigMap, the workload and the
// ScaledObject. Binding: the runtime ConfigMap, the apply intent for the target workload (meant for
// `kubectl apply --server-side --field-manager=asya`) and the ScaledObject.
//
// Offline there is no cluster to resolve a workloadRef in, so the target is what the other `-f`
// documents say (a Deployment or StatefulSet; a ModelDeployment's provider resource and endpoint, as
// its render predicts them), or else the workloadRef's own name in the actor's namespace, said so on
// stderr.

import { asyncActorSpecSchema } from '../../api/crd/async-actor-schema.ts';
import { formatTarget } from '../../api/asya/constants.ts';
import type { AsyncActor, WorkloadRef } from '../../api/asya/types.ts';
import { validateAsyncActor } from '../../api/asya/validate.ts';
import { isPlainObject } from '../../api/overrides.ts';
import { schemaIssues } from '../../api/schema/issues.ts';
import type { ModelDeployment, ValidationResult } from '../../api/types.ts';
import { injectionConflict, renderBindingScaledObject, renderInjection, type InjectionTarget } from '../../render/asya/injection.ts';
import { renderStandalone } from '../../render/asya/render.ts';
import { renderRuntimeConfigMap } from '../../render/asya/render-runtime-script.ts';
import { endpointUrl, targetUrl } from '../../render/asya/target-url.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import type { ManifestDocument } from '../../present/documents.ts';

/** Kinds a binding actor may be rendered against when given with -f (they are not rendered themselves). */
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet'] as const;

/** What the render of a ModelDeployment given with -f predicts about it. */
export interface ModelDeploymentFacts {
  namespace: string;
  name: string;
  /** status.endpoint as the document has it, or as its provider would report it. */
  endpoint?: { service?: string; port?: number };
  /** The provider resource it renders, e.g. Workspace gemma-cpu. */
  resource?: { kind: string; name: string };
}

/** What a binding AsyncActor may need of a ModelDeployment: its endpoint (as stored, else as its provider would report it) and provider resource. */
export function modelDeploymentFacts(md: ModelDeployment, resource: AnyObject | undefined, predicted: ModelDeploymentFacts['endpoint']): ModelDeploymentFacts {
  const stored = isPlainObject(md.status?.endpoint) ? md.status?.endpoint : undefined;
  const endpoint = stored?.service && stored.port ? stored : predicted;
  const kind = resource?.kind;
  const name = resource?.metadata?.name;
  return {
    namespace: md.metadata.namespace ?? 'default',
    name: md.metadata.name ?? '',
    ...(endpoint ? { endpoint } : {}),
    ...(kind && name ? { resource: { kind, name } } : {}),
  };
}

export interface OfflineTargets {
  /** Deployments and StatefulSets given with -f. */
  workloads: readonly ManifestDocument[];
  modelDeployments: readonly ModelDeploymentFacts[];
}

export type AsyaRender = { objects: AnyObject[]; problems: []; warnings: string[] } | { objects: []; problems: string[]; warnings: string[] };

/**
 * Errors are validateAsyncActor's (what the workflow and, in the same terms, the CRD refuse), with the
 * namespace defaulted as kubectl would. Unknown fields are warnings: the API server would drop them,
 * which is rarely what a typo meant.
 */
export function checkAsyncActor(doc: ManifestDocument): ValidationResult {
  const result = validateAsyncActor(withNamespace(doc.object));
  const unknown = isPlainObject(doc.object.spec) ? schemaIssues(asyncActorSpecSchema, doc.object.spec, 'spec').warnings : [];
  return { errors: result.valid ? [] : result.errors, warnings: unknown };
}

export function renderAsyncActorDocument(doc: ManifestDocument, targets: OfflineTargets): AsyaRender {
  const result = validateAsyncActor(withNamespace(doc.object));
  if (!result.valid) return { objects: [], problems: result.errors.map((e) => `${e.field}: ${e.message}`), warnings: [] };
  const actor = result.actor;
  if (!actor.spec.workloadRef) {
    const children = renderStandalone(actor);
    return { objects: [children.runtimeConfigMap, children.workload, ...(children.scaledObject ? [children.scaledObject] : [])], problems: [], warnings: [] };
  }
  return renderBinding(actor, actor.spec.workloadRef, targets);
}

function renderBinding(actor: AsyncActor, ref: WorkloadRef, targets: OfflineTargets): AsyaRender {
  const namespace = actor.metadata.namespace!;
  const warnings: string[] = [];
  const md = ref.kind === 'ModelDeployment' ? targets.modelDeployments.find((m) => m.namespace === namespace && m.name === ref.name) : undefined;
  const resolved = resolveWorkload(ref, namespace, targets, md);
  if (resolved.assumed) warnings.push(resolved.assumed);
  const target = resolved.target;

  const url = targetUrl(actor.spec.runtime!, namespace) ?? endpointUrl(md?.endpoint, namespace);
  if (!url) {
    return {
      objects: [],
      problems: [
        `spec.runtime: the ModelDeployment ${namespace}/${ref.name} names its server in status.endpoint, which is not known offline: pass its manifest with -f, or set runtime.targetURL or runtime.targetService`,
      ],
      warnings,
    };
  }
  const conflict = resolved.live ? injectionConflict(resolved.live, actor.metadata.name) : undefined;
  if (conflict) return { objects: [], problems: [`${formatTarget(target)}: ${conflict}: ${conflictText(conflict)}`], warnings };

  const scaleTarget = ref.kind === 'ModelDeployment' ? { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name } : { apiVersion: target.apiVersion, kind: target.kind, name: target.name };
  return {
    objects: [
      // The injected runtime mounts the script from it, as in standalone mode.
      renderRuntimeConfigMap(namespace),
      renderInjection(actor, target, url),
      ...(actor.spec.scaling.enabled ? [renderBindingScaledObject(actor, scaleTarget)] : []),
    ],
    problems: [],
    warnings,
  };
}

interface ResolvedWorkload {
  target: InjectionTarget;
  /** The workload's manifest when one was given, to check for conflicts. */
  live?: AnyObject;
  /** Why the target is a guess, when it is. */
  assumed?: string;
}

/**
 * The Deployment or StatefulSet the controller would inject into, as far as the documents tell: the
 * named one; for a Workspace (directly or as a ModelDeployment's provider resource) the workload it
 * owns, which KAITO names after it.
 */
function resolveWorkload(ref: WorkloadRef, namespace: string, targets: OfflineTargets, md: ModelDeploymentFacts | undefined): ResolvedWorkload {
  const given = targets.workloads.map((d) => d.object as AnyObject).filter((w) => (w.metadata?.namespace || 'default') === namespace);
  const asTarget = (w: AnyObject): ResolvedWorkload => ({ target: { apiVersion: 'apps/v1', kind: String(w.kind), name: String(w.metadata?.name), namespace }, live: w });
  if (ref.kind === 'Deployment' || ref.kind === 'StatefulSet') {
    const named = given.find((w) => w.kind === ref.kind && w.metadata?.name === ref.name);
    return named ? asTarget(named) : { target: { apiVersion: 'apps/v1', kind: ref.kind, name: ref.name, namespace } };
  }
  const owner = ref.kind === 'Workspace' ? { kind: 'Workspace', name: ref.name } : md?.resource;
  if (owner) {
    const owned = given.find((w) => w.metadata?.ownerReferences?.some((o) => o.kind === owner.kind && o.name === owner.name));
    if (owned) return asTarget(owned);
  }
  const name = owner?.kind === 'Workspace' ? owner.name : ref.name;
  const named = given.find((w) => w.metadata?.name === name);
  if (named) return asTarget(named);
  const why =
    owner?.kind === 'Workspace'
      ? `KAITO names the workload of Workspace ${namespace}/${owner.name} after it`
      : `the workload of ${ref.kind} ${namespace}/${ref.name} is found in the cluster`;
  return {
    target: { apiVersion: 'apps/v1', kind: 'Deployment', name, namespace },
    assumed: `${why}: rendered for Deployment ${namespace}/${name} (pass the workload's manifest with -f to render for it)`,
  };
}

function conflictText(conflict: string): string {
  return conflict === 'AlreadyManaged'
    ? 'another AsyncActor already manages this workload'
    : 'it already has a container or volume named like the ones Asya injects (asya-runtime, asya-sidecar, socket-dir, tmp), not put there by Asya';
}

/** Namespaced objects without a namespace land in "default", as with kubectl. */
function withNamespace(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = isPlainObject(object.metadata) ? object.metadata : undefined;
  if (!metadata || (typeof metadata.namespace === 'string' && metadata.namespace)) return object;
  return { ...object, metadata: { ...metadata, namespace: 'default' } };
}
