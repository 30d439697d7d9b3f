import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from '../api/constants.ts';
import type { ProviderResourceType } from '../providers/contract.ts';
import { collectionPath, CustomObjects, splitApiVersion, type AnyObject } from '../kube/custom-objects.ts';
import { resilientInformer } from '../kube/informer.ts';
import { detectInstalledVersion } from '../activities/provider/crd-version.ts';

export interface ProviderResourceWatchOptions {
  kc: KubeConfig;
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
  const objects = new CustomObjects(opts.kc);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let informer: { stop(): Promise<void> } | undefined;

  const begin = async () => {
    if (stopped) return;
    let choice: Awaited<ReturnType<typeof detectInstalledVersion>>;
    try {
      choice = await detectInstalledVersion(opts.kc, opts.resource);
    } catch (err) {
      opts.log?.(`${opts.resource.kind} CRD lookup failed: ${(err as Error).message}`);
      choice = undefined;
    }
    if (!choice || 'error' in choice) {
      timer = setTimeout(() => void begin(), opts.crdPollMs ?? 15_000);
      return;
    }
    const ref = { ...splitApiVersion(choice.apiVersion), plural: opts.resource.plural };
    const labelSelector = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;
    const w = resilientInformer<KubernetesObject>(opts.kc, collectionPath(ref), async () => (await objects.listRaw({ ...ref, labelSelector })) as never, {
      labelSelector,
      onError: (err, delay) => opts.log?.(`${opts.resource.kind} watch failed (${(err as Error).message?.split('\n')[0]}); restarting in ${delay}ms`),
    });
    const kind = opts.resource.kind;
    w.informer.on('add', (o) => opts.onChange(o as unknown as AnyObject, `${kind} added`));
    w.informer.on('update', (o) => opts.onChange(o as unknown as AnyObject, `${kind} changed`));
    w.informer.on('delete', (o) => opts.onChange(o as unknown as AnyObject, `${kind} deleted`));
    informer = w;
    await w.start();
  };
  void begin();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await informer?.stop();
    },
  };
}
