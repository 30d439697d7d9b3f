import type { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, PROVIDER_CONFIG_KIND, providerFieldManager } from '../api/constants.ts';
import type { ProviderDefinition } from '../providers/contract.ts';
import { crdCollection, crdRef, versionOfResource } from '../providers/crd-version.ts';
import { CustomObjects } from '../kube/custom-objects.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import { subscribe } from '../kube/informer.ts';
import { PROVIDER_CONFIGS } from '../api/constants.ts';
import { kubeNow } from '../kube/time.ts';
import { workerReadyCondition, workerStoppedCondition } from '../providers/provider-liveness.ts';
import { PRODUCT_VERSION } from './version.ts';

export interface Registration {
  /** Writes ready=false (on shutdown) and stops the heartbeat. */
  stop(): Promise<void>;
}

/**
 * A provider registers itself (seed 001 §3.9: no manual step): it applies its InferenceProviderConfig
 * at start, then heartbeats its status — ready, version, lastHeartbeat and the upstream CRD version it
 * found (empty when the CRD is missing, which is how the core learns "CRD not installed").
 */
export async function registerProvider(
  kc: KubeConfig,
  provider: ProviderDefinition,
  opts: { heartbeatMs?: number; crdCheckMs?: number; informers?: InformerSet; log?: (line: string) => void } = {},
): Promise<Registration> {
  const objects = new CustomObjects(kc);
  const fieldManager = providerFieldManager(provider.name);
  const ref = { ...PROVIDER_CONFIGS, name: provider.name };
  // Its metadata and spec as the provider declares them; the status is the heartbeat's to write.
  const { metadata, spec } = provider.config;
  await objects.apply(ref, { apiVersion: API_VERSION, kind: PROVIDER_CONFIG_KIND, metadata, spec }, fieldManager);

  // The provider's own CRD, watched (one object: a `metadata.name` field selector). Read from this
  // watch's cache once it is filled, else from the API server. A built-in kind (a Deployment) has no
  // CRD: the version it renders is reported as installed, always.
  const builtin = provider.resource.builtin === true;
  const crdName = crdRef(provider.resource).name;
  const crds = builtin ? undefined : opts.informers?.collection(`${provider.resource.kind} CRD`, crdCollection(provider.resource));
  const versionOf = (crd: unknown) => {
    const version = versionOfResource(provider.resource, crd);
    return version && !('error' in version) ? version.apiVersion : '';
  };
  const installedVersion = async () => {
    if (builtin) return versionOf(undefined);
    if (crds?.synced) return versionOf(crds.informer.get(crdName));
    return versionOf(await objects.get(crdRef(provider.resource)).catch(() => undefined));
  };
  let reported = '';
  let stopped = false;
  // Status writes run one at a time, in order, each on what is installed when its turn comes: a CRD
  // removed and re-created in quick succession cannot leave the older answer written last.
  let queue: Promise<void> = Promise.resolve();
  const serially = (job: () => Promise<void>): Promise<void> => {
    const done = queue.then(job);
    queue = done.catch(() => undefined);
    return done;
  };
  const heartbeatMs = opts.heartbeatMs ?? 30_000;
  // The `Ready` condition says why (`kubectl describe`). Its transition time moves when readiness
  // changes, and when a heartbeat follows missed ones (this process stalled, or could not reach the API
  // server): that is when the core may have marked the config stale (worker/provider-liveness.ts), and
  // this heartbeat, forced, takes its fields back. Judged from this process's own writes: no read, and
  // no permission to read, needed.
  let since = '';
  let lastWrite: { at: number; ready: boolean } | undefined;
  const write = async (ready: boolean, installed?: string) => {
    reported = installed ?? (await installedVersion());
    const at = Date.now();
    const now = kubeNow(new Date(at));
    if (!lastWrite || lastWrite.ready !== ready || at - lastWrite.at > 2 * heartbeatMs) since = now;
    await objects.applyStatus(
      ref,
      {
        apiVersion: API_VERSION,
        kind: PROVIDER_CONFIG_KIND,
        metadata: { name: provider.name },
        status: {
          ready,
          version: `kubeairunway-${provider.name}-provider:v${PRODUCT_VERSION}`,
          lastHeartbeat: now,
          upstreamCRDVersion: reported,
          conditions: [ready ? workerReadyCondition(heartbeatMs, since) : workerStoppedCondition(since)],
        },
      },
      fieldManager,
    );
    lastWrite = { at, ready };
  };
  /** Writes the status when the CRD version differs from the one last reported. */
  const refresh = (why: string) => {
    if (stopped) return;
    serially(async () => {
      const installed = await installedVersion();
      if (!stopped && installed !== reported) await write(true, installed);
    }).catch((err: Error) => opts.log?.(`${provider.name}: ${why} failed: ${err.message}`));
  };
  await serially(() => write(true));
  const timer = setInterval(() => {
    serially(() => write(true)).catch((err: Error) => opts.log?.(`${provider.name}: heartbeat failed: ${err.message}`));
  }, heartbeatMs);
  timer.unref();
  // The status is written as soon as the CRD's watch reports it installed, upgraded or removed, not on
  // the next timer tick: the core learns "CRD not installed" (and that it no longer is) from this
  // status only, so whatever re-checks it right after the CRD changed (the wake-up that this status
  // change itself sends the deployments waiting on this provider, a `kubeairunway retry`) must find the
  // CRD as the API server has it now. The watch's cache is updated before its handlers run, so the
  // read in `refresh` sees the event's CRD.
  const unsubscribe = crds ? subscribe(crds.informer, ['add', 'update', 'delete'], () => refresh('CRD change report')) : undefined;
  // Still checked on a timer too: the watch may be down (an outage, or a role without list and watch
  // of the CRD), and then this is what notices.
  const crdTimer = builtin ? undefined : setInterval(() => refresh('CRD check'), opts.crdCheckMs ?? 5_000);
  crdTimer?.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(crdTimer);
      unsubscribe?.();
      await serially(() => write(false)).catch((err: Error) => opts.log?.(`${provider.name}: could not mark not ready: ${err.message}`));
    },
  };
}
