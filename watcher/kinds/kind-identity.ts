import type { CollectionRef } from '../../kube/custom-objects.ts';
import { K8sName, K8sNamespace, MdName, MdNamespace } from '../../workflows/engine/search-attributes.ts';
import type { WatchedKind, WorkflowName } from '../watched-kind.ts';

/** The search attribute keys a kind's workflow starts with: the shared K8s* ones, or ModelDeployment's Md* ones (kept for users' saved queries). */
const START_KEYS = {
  k8s: { namespace: K8sNamespace, name: K8sName },
  md: { namespace: MdNamespace, name: MdName },
} as const;

/**
 * What every watched kind states alike: its kind, the workflow that runs one object, its collection,
 * and the object's namespace and name as the workflow's start attributes.
 */
export function kindIdentity(
  kind: string,
  workflowType: WorkflowName,
  collection: Omit<CollectionRef, 'namespace'>,
  keys: keyof typeof START_KEYS = 'k8s',
): Pick<WatchedKind, 'kind' | 'workflowType' | 'collection' | 'startAttributes'> {
  const { namespace, name } = START_KEYS[keys];
  return {
    kind,
    workflowType,
    collection,
    startAttributes: (ref) => [
      { key: namespace, value: ref.namespace },
      { key: name, value: ref.name },
    ],
  };
}
