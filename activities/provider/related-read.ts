import { MANAGED_SELECTOR } from '../../api/constants.ts';
import type { OwnedKind, RelatedObjects } from '../../providers/contract.ts';
import { MODEL_DEPLOYMENT_LABEL, ownedObjectSelector } from '../../providers/shared/metadata.ts';
import { splitApiVersion, type AnyObject, type CustomObjects } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { kubeCall } from '../../kube/errors.ts';

/** At most this many objects of a kind reach a status mapping: a message needs one, the counts come from the Deployment. */
export const MAX_RELATED = 100;

/**
 * The objects of a provider's `statusReads` kinds that belong to one deployment (its namespace, its
 * `kubeairunway.ai/model-deployment` label), by kind: from the process's informer of managed objects
 * when one holds that kind, else listed from the API server by label, at most MAX_RELATED each.
 */
export async function readRelated(
  objects: CustomObjects,
  informers: InformerSet | undefined,
  kinds: readonly OwnedKind[],
  namespace: string,
  name: string,
): Promise<RelatedObjects> {
  const labels = ownedObjectSelector(name);
  const selector = Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',');
  const ours = (o: AnyObject) => o.metadata?.labels?.[MODEL_DEPLOYMENT_LABEL] === labels[MODEL_DEPLOYMENT_LABEL];
  const out: Record<string, readonly unknown[]> = {};
  for (const kind of kinds) {
    const collection = { ...splitApiVersion(kind.apiVersion), plural: kind.plural, namespace };
    const cached = informers?.selection(collection, MANAGED_SELECTOR)?.filter(ours);
    const items = cached ?? (await kubeCall(`list ${kind.kind}s`, () => objects.list({ ...collection, labelSelector: selector, limit: MAX_RELATED })));
    out[kind.kind] = items.slice(0, MAX_RELATED);
  }
  return out;
}
