import type { KubeConfig } from '@kubernetes/client-node';
import type { ProviderResourceType } from '../providers/contract.ts';
import { splitApiVersion, type AnyObject } from '../kube/custom-objects.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import { detectInstalledVersion } from '../providers/crd-version.ts';
import { MANAGED_SELECTOR } from '../api/constants.ts';

export interface ProviderResourceWatchOptions {
  kc: KubeConfig;
  /** The process's shared informers: the provider's activities read its resources from the same cache. */
  informers: InformerSet;
  resource: ProviderResourceType;
  /** Called for every change of a provider resource we manage (operator status, direct edits, deletion). */
  onChange: (obj: AnyObject, reason: string) => void;
  /** How often to look for the CRD while it is not installed. */
  crdPollMs?: number;
  log?: (line: string) => void;
}

/**
 * Watches one provider's resources (those carrying the managed-by label) so that upstream status
 * changes, direct edits (drift) and deletions reach the owning deployment's workflow at once, with no
 * per-deployment polling. Waits for the CRD when it is not installed yet.
 */
export function watchProviderResources(opts: ProviderResourceWatchOptions): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const begin = async () => {
    if (stopped) return;
    let choice: Awaited<ReturnType<typeof detectInstalledVersion>>;
    try {
      choice = await detectInstalledVersion(opts.kc, opts.informers, opts.resource);
    } catch (err) {
      opts.log?.(`${opts.resource.kind} CRD lookup failed: ${(err as Error).message}`);
      choice = undefined;
    }
    if (!choice || 'error' in choice) {
      timer = setTimeout(() => void begin(), opts.crdPollMs ?? 15_000);
      return;
    }
    const kind = opts.resource.kind;
    const { informer } = opts.informers.collection(kind, { ...splitApiVersion(choice.apiVersion), plural: opts.resource.plural, labelSelector: MANAGED_SELECTOR });
    informer.on('add', (o) => opts.onChange(o as unknown as AnyObject, `${kind} added`));
    informer.on('update', (o) => opts.onChange(o as unknown as AnyObject, `${kind} changed`));
    informer.on('delete', (o) => opts.onChange(o as unknown as AnyObject, `${kind} deleted`));
  };
  void begin();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
