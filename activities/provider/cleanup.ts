import type { ProviderDefinition } from '../../providers/contract.ts';
import { ownedObjectSelector } from '../../providers/shared/metadata.ts';
import { splitApiVersion, type AnyObject, type CustomObjects } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { classifyKubeError, kubeCall } from '../../kube/errors.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import { versionOfResource } from '../../providers/crd-version.ts';
import { MANAGED_SELECTOR } from '../../api/constants.ts';

/**
 * Deletes every object of one deployment that the provider owns (found by label, confirmed by owner
 * uid) and returns what still exists, as `Kind namespace/name`: objects just deleted or still held by
 * their own finalizers. A kind whose CRD is not installed has nothing to delete: it counts as gone.
 */
export async function deleteOwnedObjects(
  /** The provider's CRD as installed (undefined: missing): its primary kind is deleted at the version the CRD serves. */
  providerCrd: () => Promise<unknown>,
  informers: InformerSet | undefined,
  objects: CustomObjects,
  provider: ProviderDefinition,
  ref: ObjectRef,
  name: string,
  /**
   * Told before each provider resource (the primary kind) is deleted: its deletion's watch echo will not
   * be news. The function it returns takes that back when the API server does not remove it at once.
   */
  expectRemoval?: (obj: AnyObject) => () => void,
  /** Kinds left in place: a recreation (an identity change) keeps the storage claims, and the model cache on them. */
  keepKinds: readonly string[] = [],
): Promise<string[]> {
  const installed = versionOfResource(provider.resource, await kubeCall(`detect ${provider.resource.kind} CRD`, providerCrd));
  const labels = Object.entries(ownedObjectSelector(name));
  const selector = labels.map(([k, v]) => `${k}=${v}`).join(',');
  const ours = (i: AnyObject) => labels.every(([k, v]) => i.metadata?.labels?.[k] === v) && Boolean(i.metadata?.ownerReferences?.some((o) => o.uid === ref.uid));
  const remaining: string[] = [];
  for (const kind of provider.ownedKinds) {
    if (keepKinds.includes(kind.kind)) continue;
    const isPrimary = splitApiVersion(kind.apiVersion).group === provider.resource.group && kind.kind === provider.resource.kind;
    let apiVersion = kind.apiVersion;
    if (isPrimary) {
      if (installed === undefined || 'error' in installed) continue;
      apiVersion = installed.apiVersion;
    }
    const collection = { ...splitApiVersion(apiVersion), plural: kind.plural, namespace: ref.namespace };
    // The watcher's informer of managed objects (same process) usually holds them: a LIST by label makes
    // the API server filter every object of the namespace, per deletion. Found nothing there (not synced,
    // not in this process, or not seen yet): ask the API server, so a lagging cache cannot skip one.
    let items = informers?.selection(collection, MANAGED_SELECTOR)?.filter(ours) ?? [];
    if (items.length === 0) {
      try {
        items = (await objects.list({ ...collection, labelSelector: selector })).filter(ours);
      } catch (err) {
        if (classifyKubeError(err).type === 'NoKindMatch') continue;
        throw err;
      }
    }
    for (const item of items) {
      const itemName = item.metadata!.name!;
      // An object no finalizer holds is gone as soon as the delete returns: no second look is needed.
      let after: 'absent' | 'gone' | 'deleting' = 'deleting';
      if (!item.metadata?.deletionTimestamp) {
        const takeBack = isPrimary ? expectRemoval?.(item) : undefined;
        try {
          after = await kubeCall(`delete ${kind.kind}`, () => objects.remove({ ...collection, name: itemName }));
        } finally {
          if (after !== 'gone') takeBack?.();
        }
      }
      if (after === 'deleting') remaining.push(`${kind.kind} ${ref.namespace}/${itemName}`);
    }
  }
  return remaining;
}
