import type { KubeConfig } from '@kubernetes/client-node';
import type { OwnedKind, ProviderResourceType } from '../providers/contract.ts';
import { MODEL_DEPLOYMENT_LABEL } from '../providers/shared/metadata.ts';
import { splitApiVersion, type AnyObject } from '../kube/custom-objects.ts';
import type { InformerSet, SharedCollection } from '../kube/informer-set.ts';
import { crdCollection, providerCrdRef, versionOfResource } from '../providers/crd-version.ts';
import { readCrd } from '../kube/installed-crd.ts';
import { MANAGED_SELECTOR } from '../api/constants.ts';
import { subscribe } from '../kube/informer.ts';

export interface ProviderResourceWatchOptions {
  kc: KubeConfig;
  /** The process's shared informers: the provider's activities read its resources from the same cache. */
  informers: InformerSet;
  resource: ProviderResourceType;
  /** Called for every change of a provider resource we manage (operator status, direct edits, deletion). */
  onChange: (obj: AnyObject, reason: string) => void;
  /**
   * Kinds the provider's status reads beside its resource (`ProviderDefinition.statusReads`, e.g. Pods):
   * watched too (managed-by label), so their reads come from this cache and a change of one (a pod
   * crash-looping) reaches `onRelatedChange` with the provider resource of the same deployment.
   */
  related?: readonly OwnedKind[];
  onRelatedChange?: (kind: string, obj: AnyObject, reason: string, resource: AnyObject) => void;
  /** How often to look for the CRD while it is not installed. */
  crdPollMs?: number;
  log?: (line: string) => void;
}

/**
 * Watches one provider's resources (those carrying the managed-by label) so that upstream status
 * changes, direct edits (drift) and deletions reach the owning deployment's workflow at once, with no
 * per-deployment polling. Waits for the CRD when it is not installed yet.
 *
 * The provider's CRD watch (the one its registration keeps, shared here) says when the CRD appears or
 * comes back: the resource watch then starts, or restarts, at once. Without it, a CRD installed after
 * the controller started would wait for the next look (`crdPollMs`), and one re-installed would wait
 * for the failed resource watch's backoff (up to 30 s) before its deployments saw their status again.
 */
export function watchProviderResources(opts: ProviderResourceWatchOptions): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let resources: SharedCollection | undefined;
  let beginning: Promise<void> | undefined;

  // A built-in kind (a Deployment) has no CRD to wait for: its watch starts at once.
  const crds = opts.resource.builtin ? undefined : opts.informers.collection(`${opts.resource.kind} CRD`, crdCollection(opts.resource));
  const unsubscribe = crds
    ? subscribe(crds.informer, ['add', 'update'], () => {
        if (stopped) return;
        if (resources) return resources.retryNow();
        clearTimeout(timer);
        void look();
      })
    : () => {};

  /** One look for the CRD at a time: a CRD event during a look waits for that look. */
  const look = (): Promise<void> => (beginning ??= begin().finally(() => (beginning = undefined)));

  const begin = async () => {
    if (stopped || resources) return;
    let choice: ReturnType<typeof versionOfResource>;
    try {
      choice = versionOfResource(opts.resource, await readCrd(opts.kc, opts.informers, providerCrdRef(opts.resource)));
    } catch (err) {
      opts.log?.(`${opts.resource.kind} CRD lookup failed: ${(err as Error).message}`);
      choice = undefined;
    }
    if (stopped) return;
    if (!choice || 'error' in choice) {
      clearTimeout(timer);
      timer = setTimeout(() => void look(), opts.crdPollMs ?? 15_000);
      return;
    }
    const kind = opts.resource.kind;
    resources = opts.informers.collection(kind, { ...splitApiVersion(choice.apiVersion), plural: opts.resource.plural, labelSelector: MANAGED_SELECTOR });
    const { informer } = resources;
    informer.on('add', (o) => opts.onChange(o, `${kind} added`));
    informer.on('update', (o) => opts.onChange(o, `${kind} changed`));
    informer.on('delete', (o) => opts.onChange(o, `${kind} deleted`));
    for (const other of opts.related ?? []) if (other.kind !== kind) watchRelated(other, informer);
  };

  /** A related object (a Pod: owned by a ReplicaSet, not by us) belongs to the provider resource with its deployment label. */
  const watchRelated = (other: OwnedKind, resourceInformer: SharedCollection['informer']) => {
    const related = opts.informers.collection(other.kind, { ...splitApiVersion(other.apiVersion), plural: other.plural, labelSelector: MANAGED_SELECTOR });
    const notify = (o: AnyObject, reason: string) => {
      const label = o.metadata?.labels?.[MODEL_DEPLOYMENT_LABEL];
      const resource = label ? resourceInformer.list(o.metadata?.namespace).find((r) => r.metadata?.labels?.[MODEL_DEPLOYMENT_LABEL] === label) : undefined;
      if (resource) opts.onRelatedChange?.(other.kind, o, reason, resource);
    };
    related.informer.on('add', (o) => notify(o, `${other.kind} added`));
    related.informer.on('update', (o) => notify(o, `${other.kind} changed`));
    related.informer.on('delete', (o) => notify(o, `${other.kind} deleted`));
  };
  void look();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
