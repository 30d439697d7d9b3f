import { API_VERSION, GROUP, MODEL_DEPLOYMENT_KIND, MODEL_DEPLOYMENT_PLURAL, PROVIDER_CONFIG_KIND, PROVIDER_CONFIGS, VERSION } from '../api/constants.ts';
import type { ResourceRef } from '../kube/custom-objects.ts';
import type { InvolvedObject } from '../kube/events.ts';
import type { ObjectRef } from '../contract/object-ref.ts';
import type { KindIdentity } from './kind/status-write.ts';

/** ModelDeployment as its activities' KindClient addresses it. */
export const MODEL_DEPLOYMENT: KindIdentity = { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, kind: MODEL_DEPLOYMENT_KIND };

/** InferenceProviderConfig, which the core reads (and whose liveness it keeps), as a KindClient addresses it. */
export const PROVIDER_CONFIG: KindIdentity = { ...PROVIDER_CONFIGS, kind: PROVIDER_CONFIG_KIND };

export function modelDeploymentResource(ref: Pick<ObjectRef, 'namespace' | 'name'>): ResourceRef {
  return { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: ref.namespace, name: ref.name };
}


export function involved(ref: ObjectRef): InvolvedObject {
  return { apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, namespace: ref.namespace, name: ref.name, uid: ref.uid };
}
