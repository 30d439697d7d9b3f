// A rendered object in its canonical form (keys sorted, no undefined: canonical.ts). The canonical
// form is built as JSON; the guard checks it still has the shape server-side apply takes
// (contract.ts KubernetesObject), which canonicalizing a rendered object always keeps.

import { isPlainObject } from '../../api/overrides.ts';
import type { KubernetesObject, OwnerReferenceOut } from '../contract.ts';
import { canonicalize } from './canonical.ts';

const isStringMap = (value: unknown): value is Record<string, string> => isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');

function isOwnerReference(value: unknown): value is OwnerReferenceOut {
  return (
    isPlainObject(value) &&
    typeof value.apiVersion === 'string' &&
    typeof value.kind === 'string' &&
    typeof value.name === 'string' &&
    (value.uid === undefined || typeof value.uid === 'string') &&
    value.controller === true &&
    value.blockOwnerDeletion === true
  );
}

/** Whether a value is a rendered object: apiVersion, kind, and metadata with name, namespace, labels, owner references. */
export function isRenderedObject(value: unknown): value is KubernetesObject {
  if (!isPlainObject(value) || typeof value.apiVersion !== 'string' || typeof value.kind !== 'string') return false;
  const m = value.metadata;
  return (
    isPlainObject(m) &&
    typeof m.name === 'string' &&
    typeof m.namespace === 'string' &&
    isStringMap(m.labels) &&
    (m.annotations === undefined || isStringMap(m.annotations)) &&
    Array.isArray(m.ownerReferences) &&
    m.ownerReferences.every(isOwnerReference)
  );
}

/** A rendered object with its keys sorted; a render whose output loses the shape is a bug, said at once. */
export function canonicalObject(object: KubernetesObject): KubernetesObject {
  const canonical = canonicalize(object);
  if (!isRenderedObject(canonical)) throw new Error(`the canonical form of ${object.kind} ${object.metadata.name} is not a Kubernetes object`);
  return canonical;
}
