// Metadata every provider resource carries (seed 001 §4.8, §4.12): same namespace as the
// ModelDeployment, a controlling owner reference to it, the controller's managed-by label, labels that
// let a watcher map the resource back to its ModelDeployment, and the ModelDeployment's own
// `kubeairunway.ai/` labels. Labels the controller sets win over propagated ones of the same key.

import {
  API_VERSION,
  LABEL_PREFIX,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  MODEL_DEPLOYMENT_KIND,
  MODEL_SOURCE_LABEL,
} from '../../api/constants.ts';
import type { ObjectMetaOut, OwnerReferenceOut } from '../contract.ts';
import { sortedMap } from './canonical.ts';
import { labelValue } from './label-value.ts';
import type { ResolvedSpec } from './spec.ts';

/** Name of the owning ModelDeployment (same namespace); what a watcher reads to find the owner. */
export const MODEL_DEPLOYMENT_LABEL = 'kubeairunway.ai/model-deployment';
/** Engine of the owning ModelDeployment; informational, for `kubectl get -l`. */
export const ENGINE_TYPE_LABEL = 'kubeairunway.ai/engine-type';

export function ownerReference(spec: ResolvedSpec): OwnerReferenceOut {
  return {
    apiVersion: API_VERSION,
    kind: MODEL_DEPLOYMENT_KIND,
    name: spec.name,
    // Offline rendering (CLI preview) has no uid; the key is then left out rather than left empty.
    ...(spec.uid ? { uid: spec.uid } : {}),
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Labels that identify the objects of one ModelDeployment; also the selector used for cleanup. A name
 * longer than a label value allows is shortened with a hash, so the owner reference (not the label)
 * is the authoritative link back to the ModelDeployment.
 */
export function ownedObjectSelector(name: string): Record<string, string> {
  return { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE, [MODEL_DEPLOYMENT_LABEL]: labelValue(name) };
}

export function resourceLabels(spec: ResolvedSpec): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.labels)) {
    if (key.startsWith(LABEL_PREFIX)) labels[key] = value;
  }
  Object.assign(labels, ownedObjectSelector(spec.name), { [MODEL_SOURCE_LABEL]: spec.source });
  if (spec.engine) labels[ENGINE_TYPE_LABEL] = spec.engine;
  return sortedMap(labels) ?? {};
}

export function objectMeta(spec: ResolvedSpec, name: string = spec.name): ObjectMetaOut {
  return {
    name,
    namespace: spec.namespace,
    labels: resourceLabels(spec),
    ownerReferences: [ownerReference(spec)],
  };
}
