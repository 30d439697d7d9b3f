import type { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION } from '../../api/constants.ts';
import { ASYA_FIELD_MANAGER, formatTarget, MANAGED_BY_LABEL } from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { TargetRef, TargetResolution } from '../../contract/asya-activities.ts';
import { splitApiVersion, type AnyObject, type CustomObjects } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { providerCrdRef, versionOfResource } from '../../providers/crd-version.ts';
import { readCrd } from '../../kube/installed-crd.ts';
import { builtinProviders } from '../../providers/index.ts';
import { injectionConflict, isInjected } from '../../render/asya/injection.ts';
import { endpointUrl, targetUrl } from '../../render/asya/target-url.ts';
import { MODEL_DEPLOYMENT, modelDeploymentResource } from '../deployment-ref.ts';
import { KindClient } from '../kind/kind-client.ts';

const WORKLOADS = [
  { kind: 'Deployment', plural: 'deployments' },
  { kind: 'StatefulSet', plural: 'statefulsets' },
] as const;

type Found = { workload: AnyObject; kind: 'Deployment' | 'StatefulSet' } | { wait: string };
type WorkloadRef = NonNullable<AsyncActor['spec']['workloadRef']>;

/** A target found, with what a ModelDeployment adds: the URL its endpoint gives and itself as what KEDA scales. */
interface Lookup {
  found: Found;
  defaultUrl?: string;
  scaleTarget?: TargetResolution['scaleTarget'];
}

/** Reads in the namespace the reference points into. */
interface TargetReader {
  objects: CustomObjects;
  kc: KubeConfig;
  informers: InformerSet | undefined;
  namespace: string;
  /** The reference as people read it: `kind namespace/name`. */
  named: string;
  get(group: string, version: string, plural: string, name: string): Promise<AnyObject | undefined>;
}

function targetReader(objects: CustomObjects, kc: KubeConfig, informers: InformerSet | undefined, namespace: string, ref: WorkloadRef): TargetReader {
  return {
    objects,
    kc,
    informers,
    namespace,
    named: `${ref.kind} ${namespace}/${ref.name}`,
    get: (group, version, plural, name) => kubeCall(`read ${plural} ${name}`, () => objects.get({ group, version, plural, namespace, name })),
  };
}

/** The Deployment or StatefulSet an owner controls, found by its controller ownerReference. */
async function ownedWorkload(r: TargetReader, owner: AnyObject, what: string): Promise<Found> {
  for (const { kind, plural } of WORKLOADS) {
    const items = await kubeCall(`list ${plural}`, () => r.objects.list({ group: 'apps', version: 'v1', plural, namespace: r.namespace }));
    const workload = items.find((w) => w.metadata?.ownerReferences?.some((o) => o.uid === owner.metadata?.uid && o.controller));
    if (workload) return { workload: { ...workload, apiVersion: 'apps/v1', kind }, kind };
  }
  return { wait: `${what} has no Deployment or StatefulSet yet` };
}

/** A Deployment or StatefulSet as named. */
async function namedWorkload(r: TargetReader, kind: 'Deployment' | 'StatefulSet', name: string): Promise<Lookup> {
  const workload = await r.get('apps', 'v1', kind === 'Deployment' ? 'deployments' : 'statefulsets', name);
  return { found: workload ? { workload: { ...workload, apiVersion: 'apps/v1', kind }, kind } : { wait: `${r.named} does not exist` } };
}

/** A KAITO Workspace's workload: the one it controller-owns (KAITO's status names none). */
async function workspaceWorkload(r: TargetReader, ref: WorkloadRef): Promise<Lookup> {
  const { group, version } = splitApiVersion(ref.apiVersion);
  const workspace = await r.get(group, version, 'workspaces', ref.name);
  return { found: workspace ? await ownedWorkload(r, workspace, r.named) : { wait: `${r.named} does not exist` } };
}

/** The workload of a ModelDeployment's provider resource, for the built-in provider that makes that kind. */
async function providerWorkload(r: TargetReader, md: ModelDeployment): Promise<Found> {
  const { resourceKind, resourceName } = md.status?.provider ?? {};
  if (!resourceKind || !resourceName) return { wait: `${r.named} has no provider resource yet` };
  const provider = builtinProviders.find((p) => p.resource.kind === resourceKind);
  if (!provider) return { wait: `${r.named}'s provider resource ${resourceKind} is not one a built-in provider makes` };
  const choice = versionOfResource(provider.resource, await kubeCall(`find the ${resourceKind} CRD`, () => readCrd(r.kc, r.informers, providerCrdRef(provider.resource))));
  if (!choice || 'error' in choice) return { wait: `the ${resourceKind} CRD is not installed` };
  const { group, version } = splitApiVersion(choice.apiVersion);
  const resource = await r.get(group, version, provider.resource.plural, resourceName);
  return resource ? ownedWorkload(r, resource, `${resourceKind} ${r.namespace}/${resourceName}`) : { wait: `${resourceKind} ${r.namespace}/${resourceName} does not exist` };
}

/** A ModelDeployment's workload, with the target URL defaulted from its `status.endpoint` and KEDA scaling the ModelDeployment itself. */
async function deploymentWorkload(r: TargetReader, name: string): Promise<Lookup> {
  // Read only (the field manager is never used): the deployment as its kind's type.
  const deployments = new KindClient<ModelDeployment>(MODEL_DEPLOYMENT, { kc: r.kc, objects: r.objects, fieldManager: ASYA_FIELD_MANAGER });
  const md = await deployments.get(modelDeploymentResource({ namespace: r.namespace, name }));
  return {
    defaultUrl: endpointUrl(md?.status?.endpoint, r.namespace),
    scaleTarget: { apiVersion: API_VERSION, kind: 'ModelDeployment', name },
    found: md ? await providerWorkload(r, md) : { wait: `${r.named} does not exist` },
  };
}

/** The target of each kind a workloadRef may name; undefined for a kind nothing can be bound to. */
function lookUp(r: TargetReader, ref: WorkloadRef): Promise<Lookup> | undefined {
  switch (ref.kind) {
    case 'Deployment':
    case 'StatefulSet':
      return namedWorkload(r, ref.kind, ref.name);
    case 'Workspace':
      return workspaceWorkload(r, ref);
    case 'ModelDeployment':
      return deploymentWorkload(r, ref.name);
    default:
      return undefined;
  }
}

/** The resolution of a workload found: what it is, whether it was injected already, and whether it can be. */
function resolved(actor: AsyncActor, ref: WorkloadRef, r: TargetReader, lookup: Lookup & { found: Exclude<Found, { wait: string }> }): TargetResolution {
  const { workload, kind } = lookup.found;
  const target: TargetRef = { apiVersion: 'apps/v1', kind, name: workload.metadata!.name!, namespace: r.namespace };
  const description = formatTarget(target);
  const spec = (workload.spec ?? {}) as { replicas?: number };
  const status = (workload.status ?? {}) as { readyReplicas?: number };
  const refusal = injectionConflict(workload, actor.metadata.name);
  return {
    resolved: true,
    reason: 'Resolved',
    message: ref.kind === kind ? `Bound to ${description}` : `${r.named} resolves to ${description}`,
    target,
    description,
    injected: isInjected(workload),
    ...(refusal ? { refusal, refusalMessage: refusalMessage(refusal, description, workload) } : {}),
    replicas: spec.replicas ?? 1,
    readyReplicas: status.readyReplicas ?? 0,
    targetURL: targetUrl(actor.spec.runtime!, actor.metadata.namespace!) ?? lookup.defaultUrl,
    scaleTarget: lookup.scaleTarget ?? { apiVersion: 'apps/v1', kind, name: target.name },
  };
}

/**
 * Follows an actor's `workloadRef` to the workload to inject into: a Deployment or StatefulSet as
 * named; a KAITO Workspace's workload; a ModelDeployment's provider resource's workload. Anything
 * missing on the way is a wait (`TargetNotReady`): the owner may create it later.
 */
export async function resolveTarget(objects: CustomObjects, kc: KubeConfig, informers: InformerSet | undefined, actor: AsyncActor): Promise<TargetResolution> {
  const ref = actor.spec.workloadRef!;
  const r = targetReader(objects, kc, informers, ref.namespace ?? actor.metadata.namespace!, ref);
  const lookup = await lookUp(r, ref);
  if (!lookup) return { resolved: false, reason: 'ResolutionFailed', message: `workloadRef.kind '${String(ref.kind)}' cannot be bound to` };
  const { found } = lookup;
  if ('wait' in found) return { resolved: false, reason: 'TargetNotReady', message: found.wait };
  return resolved(actor, ref, r, { ...lookup, found });
}

function refusalMessage(refusal: 'AlreadyManaged' | 'ContainerNameConflict', description: string, workload: AnyObject): string {
  if (refusal === 'AlreadyManaged') return `${description} is already managed by AsyncActor '${workload.metadata?.labels?.[MANAGED_BY_LABEL] ?? workload.metadata?.annotations?.[MANAGED_BY_LABEL]}'`;
  return `${description} has a container named asya-runtime or asya-sidecar that Asya did not inject`;
}
