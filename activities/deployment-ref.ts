import { API_VERSION, GROUP, MODEL_DEPLOYMENT_KIND, MODEL_DEPLOYMENT_PLURAL, PROVIDER_CONFIG_PLURAL, VERSION } from '../api/constants.ts';
import type { ModelDeployment } from '../api/types.ts';
import type { CustomObjects, ResourceRef } from '../kube/custom-objects.ts';
import type { InvolvedObject } from '../kube/events.ts';
import type { DeploymentRef } from '../workflows/ids.ts';

export function modelDeploymentResource(ref: Pick<DeploymentRef, 'namespace' | 'name'>): ResourceRef {
  return { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: ref.namespace, name: ref.name };
}

export const PROVIDER_CONFIGS = { group: GROUP, version: VERSION, plural: PROVIDER_CONFIG_PLURAL } as const;

export function involved(ref: DeploymentRef): InvolvedObject {
  return { apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, namespace: ref.namespace, name: ref.name, uid: ref.uid };
}

/** The live ModelDeployment of this incarnation, or undefined when it is gone (or replaced by a new one of the same name). */
export async function readLiveDeployment(objects: CustomObjects, ref: DeploymentRef): Promise<ModelDeployment | undefined> {
  const live = (await objects.get(modelDeploymentResource(ref))) as ModelDeployment | undefined;
  return live && live.metadata.uid === ref.uid ? live : undefined;
}
