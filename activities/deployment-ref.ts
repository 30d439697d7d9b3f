import { API_VERSION, GROUP, MODEL_DEPLOYMENT_KIND, MODEL_DEPLOYMENT_PLURAL, PROVIDER_CONFIG_PLURAL, VERSION } from '../api/constants.ts';
import type { ModelDeployment } from '../api/types.ts';
import type { CustomObjects, ResourceRef } from '../kube/custom-objects.ts';
import type { InvolvedObject } from '../kube/events.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import { isAtLeast } from '../kube/resource-version.ts';
import type { DeploymentRef, ReadRef } from '../workflows/ids.ts';

export function modelDeploymentResource(ref: Pick<DeploymentRef, 'namespace' | 'name'>): ResourceRef {
  return { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: ref.namespace, name: ref.name };
}

export const PROVIDER_CONFIGS = { group: GROUP, version: VERSION, plural: PROVIDER_CONFIG_PLURAL } as const;

export function involved(ref: DeploymentRef): InvolvedObject {
  return { apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, namespace: ref.namespace, name: ref.name, uid: ref.uid };
}

/**
 * The live ModelDeployment of this incarnation, or undefined when it is gone (or replaced by a new one
 * of the same name). From the process's cache when it holds this incarnation at least as new as the
 * pass has seen; otherwise (not cached yet, older, or gone from the cache) from the API server.
 */
export async function readLiveDeployment(objects: CustomObjects, informers: InformerSet | undefined, ref: ReadRef): Promise<ModelDeployment | undefined> {
  const resource = modelDeploymentResource(ref);
  const cached = informers?.cached(resource);
  const hit = cached?.known ? (cached.object as ModelDeployment | undefined) : undefined;
  if (hit && hit.metadata.uid === ref.uid && isAtLeast(hit.metadata.resourceVersion, ref.seenVersion)) return hit;
  const live = (await objects.get(resource)) as ModelDeployment | undefined;
  return live && live.metadata.uid === ref.uid ? live : undefined;
}
