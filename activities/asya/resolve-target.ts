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

/**
 * Follows an actor's `workloadRef` to the workload to inject into: a Deployment or StatefulSet as
 * named; a KAITO Workspace's workload (the Deployment or StatefulSet it controller-owns; KAITO's
 * status names none); a ModelDeployment's provider resource's workload, with the target URL defaulted
 * from the ModelDeployment's `status.endpoint` and KEDA scaling the ModelDeployment itself. Anything
 * missing on the way is a wait (`TargetNotReady`): the owner may create it later.
 */
export async function resolveTarget(objects: CustomObjects, kc: KubeConfig, informers: InformerSet | undefined, actor: AsyncActor): Promise<TargetResolution> {
  const ref = actor.spec.workloadRef!;
  const namespace = ref.namespace ?? actor.metadata.namespace!;
  const named = `${ref.kind} ${namespace}/${ref.name}`;
  const get = (group: string, version: string, plural: string, name: string) => kubeCall(`read ${plural} ${name}`, () => objects.get({ group, version, plural, namespace, name }));

  /** The Deployment or StatefulSet an owner controls, found by its controller ownerReference. */
  const ownedWorkload = async (owner: AnyObject, what: string): Promise<Found> => {
    for (const { kind, plural } of WORKLOADS) {
      const items = await kubeCall(`list ${plural}`, () => objects.list({ group: 'apps', version: 'v1', plural, namespace }));
      const workload = items.find((w) => w.metadata?.ownerReferences?.some((o) => o.uid === owner.metadata?.uid && o.controller));
      if (workload) return { workload: { ...workload, apiVersion: 'apps/v1', kind }, kind };
    }
    return { wait: `${what} has no Deployment or StatefulSet yet` };
  };

  let found: Found;
  let defaultUrl: string | undefined;
  let scaleTarget: TargetResolution['scaleTarget'];
  switch (ref.kind) {
    case 'Deployment':
    case 'StatefulSet': {
      const workload = await get('apps', 'v1', ref.kind === 'Deployment' ? 'deployments' : 'statefulsets', ref.name);
      found = workload ? { workload: { ...workload, apiVersion: 'apps/v1', kind: ref.kind }, kind: ref.kind } : { wait: `${named} does not exist` };
      break;
    }
    case 'Workspace': {
      const { group, version } = splitApiVersion(ref.apiVersion);
      const workspace = await get(group, version, 'workspaces', ref.name);
      found = workspace ? await ownedWorkload(workspace, named) : { wait: `${named} does not exist` };
      break;
    }
    case 'ModelDeployment': {
      // Read only (the field manager is never used): the deployment as its kind's type.
      const deployments = new KindClient<ModelDeployment>(MODEL_DEPLOYMENT, { kc, objects, fieldManager: ASYA_FIELD_MANAGER });
      const md = await deployments.get(modelDeploymentResource({ namespace, name: ref.name }));
      defaultUrl = endpointUrl(md?.status?.endpoint, namespace);
      scaleTarget = { apiVersion: API_VERSION, kind: 'ModelDeployment', name: ref.name };
      found = md ? await providerWorkload(md) : { wait: `${named} does not exist` };
      break;
    }
    default:
      return { resolved: false, reason: 'ResolutionFailed', message: `workloadRef.kind '${String(ref.kind)}' cannot be bound to` };
  }

  async function providerWorkload(md: ModelDeployment): Promise<Found> {
    const { resourceKind, resourceName } = md.status?.provider ?? {};
    if (!resourceKind || !resourceName) return { wait: `${named} has no provider resource yet` };
    const provider = builtinProviders.find((p) => p.resource.kind === resourceKind);
    if (!provider) return { wait: `${named}'s provider resource ${resourceKind} is not one a built-in provider makes` };
    const choice = versionOfResource(provider.resource, await kubeCall(`find the ${resourceKind} CRD`, () => readCrd(kc, informers, providerCrdRef(provider.resource))));
    if (!choice || 'error' in choice) return { wait: `the ${resourceKind} CRD is not installed` };
    const { group, version } = splitApiVersion(choice.apiVersion);
    const resource = await get(group, version, provider.resource.plural, resourceName);
    return resource ? ownedWorkload(resource, `${resourceKind} ${namespace}/${resourceName}`) : { wait: `${resourceKind} ${namespace}/${resourceName} does not exist` };
  }

  if ('wait' in found) return { resolved: false, reason: 'TargetNotReady', message: found.wait };
  const { workload, kind } = found;
  const target: TargetRef = { apiVersion: 'apps/v1', kind, name: workload.metadata!.name!, namespace };
  const description = formatTarget(target);
  const spec = (workload.spec ?? {}) as { replicas?: number };
  const status = (workload.status ?? {}) as { readyReplicas?: number };
  const refusal = injectionConflict(workload, actor.metadata.name);
  return {
    resolved: true,
    reason: 'Resolved',
    message: ref.kind === kind ? `Bound to ${description}` : `${named} resolves to ${description}`,
    target,
    description,
    injected: isInjected(workload),
    ...(refusal ? { refusal, refusalMessage: refusalMessage(refusal, description, workload) } : {}),
    replicas: spec.replicas ?? 1,
    readyReplicas: status.readyReplicas ?? 0,
    targetURL: targetUrl(actor.spec.runtime!, actor.metadata.namespace!) ?? defaultUrl,
    scaleTarget: scaleTarget ?? { apiVersion: 'apps/v1', kind, name: target.name },
  };
}

function refusalMessage(refusal: 'AlreadyManaged' | 'ContainerNameConflict', description: string, workload: AnyObject): string {
  if (refusal === 'AlreadyManaged') return `${description} is already managed by AsyncActor '${workload.metadata?.labels?.[MANAGED_BY_LABEL] ?? workload.metadata?.annotations?.[MANAGED_BY_LABEL]}'`;
  return `${description} has a container named asya-runtime or asya-sidecar that Asya did not inject`;
}
