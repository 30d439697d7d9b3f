// The core's watch over provider workers' heartbeats: an InferenceProviderConfig whose worker stopped
// reporting (a crash skips the "not ready" it writes on shutdown) is marked not ready, with the
// `HeartbeatStale` reason, so `kubectl get inferenceproviderconfigs` stops saying READY true. The
// worker's next heartbeat (worker/registration.ts) takes both fields back.
import type { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, CONTROLLER_FIELD_MANAGER, PROVIDER_CONFIG_KIND, PROVIDER_CONFIGS } from '../api/constants.ts';
import type { InferenceProviderConfig } from '../api/types.ts';
import { PROVIDER_CONFIG } from '../activities/deployment-ref.ts';
import { KindClient } from '../activities/kind/kind-client.ts';
import { CustomObjects } from '../kube/custom-objects.ts';
import { classifyKubeError } from '../kube/errors.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import { kubeNow } from '../kube/time.ts';
import { heartbeatStaleCondition, livenessCheckIntervalMs, staleReadyProviders, transitionTime } from '../providers/provider-liveness.ts';

/**
 * A field manager of its own: the core's `kubeairunway-controller` applies the `RulesValid` condition
 * alone (activities/core/rules-valid.ts), and an apply drops what its manager owned but left out, so one
 * manager for both would have each write remove the other's fields.
 */
export const LIVENESS_FIELD_MANAGER = `${CONTROLLER_FIELD_MANAGER}-liveness`;

export interface ProviderLiveness {
  stop(): Promise<void>;
}

/**
 * Every check interval (a sixth of `staleAfterMs`, 1–30 s), reads the configs from the process's
 * watch cache (the API server when the cache cannot answer) and writes only the ones that turned
 * stale: an idle cluster costs no request. Each write carries the resourceVersion it judged, so a
 * heartbeat that lands in between wins (409, judged again at the next check).
 */
export function watchProviderLiveness(opts: { kc: KubeConfig; informers?: InformerSet; staleAfterMs: number; log?: (line: string) => void }): ProviderLiveness {
  const objects = new CustomObjects(opts.kc);
  const providerConfigs = new KindClient<InferenceProviderConfig>(PROVIDER_CONFIG, { kc: opts.kc, informers: opts.informers, fieldManager: LIVENESS_FIELD_MANAGER, objects });
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const check = async () => {
    const configs = await providerConfigs.list();
    for (const { name, lastHeartbeat } of staleReadyProviders(configs, Date.now(), opts.staleAfterMs)) {
      if (stopped) return;
      const config = configs.find((c) => c.metadata.name === name)!;
      const now = kubeNow();
      try {
        await objects.applyStatus(
          { ...PROVIDER_CONFIGS, name },
          {
            apiVersion: API_VERSION,
            kind: PROVIDER_CONFIG_KIND,
            metadata: { name, resourceVersion: config.metadata.resourceVersion },
            status: { ready: false, conditions: [heartbeatStaleCondition(lastHeartbeat, opts.staleAfterMs, transitionTime(config.status?.conditions, 'False', now))] },
          },
          LIVENESS_FIELD_MANAGER,
        );
        opts.log?.(`provider ${name}: no heartbeat since ${lastHeartbeat}, marked not ready`);
      } catch (err) {
        // Changed meanwhile (most likely a heartbeat) or gone: the next check judges it afresh.
        const type = classifyKubeError(err).type;
        if (type !== 'Conflict' && type !== 'NotFound') opts.log?.(`provider ${name}: could not mark its stale heartbeat: ${(err as Error).message}`);
      }
    }
  };

  let busy = false;
  const timer = setInterval(() => {
    // One check at a time: a tick that finds the last one still running (a slow API server) is skipped.
    if (busy || stopped) return;
    busy = true;
    running = check()
      .catch((err: Error) => opts.log?.(`provider heartbeat check failed: ${err.message}`))
      .finally(() => (busy = false));
  }, livenessCheckIntervalMs(opts.staleAfterMs));
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
