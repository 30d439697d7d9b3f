import { API_VERSION, GROUP, MODEL_DEPLOYMENT_KIND, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../api/constants.ts';
import type { ModelDeployment } from '../api/types.ts';
import type { CustomObjects, ResourceRef } from '../kube/custom-objects.ts';
import type { InvolvedObject } from '../kube/events.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import { readLive } from '../kube/read-live.ts';
import type { ObjectRef, ReadRef } from '../contract/object-ref.ts';

export function modelDeploymentResource(ref: Pick<ObjectRef, 'namespace' | 'name'>): ResourceRef {
  return { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: ref.namespace, name: ref.name };
}


export function involved(ref: ObjectRef): InvolvedObject {
  return { apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, namespace: ref.namespace, name: ref.name, uid: ref.uid };
}

/** The live ModelDeployment of this incarnation (see `readLive`), or undefined when it is gone. */
export async function readLiveDeployment(objects: CustomObjects, informers: InformerSet | undefined, ref: ReadRef): Promise<ModelDeployment | undefined> {
  return (await readLive(objects, informers, modelDeploymentResource(ref), ref)) as ModelDeployment | undefined;
}
