import type { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, PROVIDER_CONFIG_KIND, providerFieldManager } from '../api/constants.ts';
import type { ProviderDefinition } from '../providers/contract.ts';
import { detectInstalledVersion } from '../providers/crd-version.ts';
import { CustomObjects, type AnyObject } from '../kube/custom-objects.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import { PROVIDER_CONFIGS } from '../api/constants.ts';
import { kubeNow } from '../kube/time.ts';
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
  const { status: _ignored, ...config } = provider.config as unknown as AnyObject;
  await objects.apply(ref, { ...config, apiVersion: API_VERSION, kind: PROVIDER_CONFIG_KIND } as AnyObject, fieldManager);

  const installedVersion = async () => {
    const version = await detectInstalledVersion(kc, opts.informers, provider.resource).catch(() => undefined);
    return version && !('error' in version) ? version.apiVersion : '';
  };
  let reported = '';
  const writeStatus = async (ready: boolean, upstreamCRDVersion?: string) => {
    reported = upstreamCRDVersion ?? (await installedVersion());
    await objects.applyStatus(
      ref,
      {
        apiVersion: API_VERSION,
        kind: PROVIDER_CONFIG_KIND,
        metadata: { name: provider.name },
        status: { ready, version: `kubeairunway-${provider.name}-provider:v${PRODUCT_VERSION}`, lastHeartbeat: kubeNow(), upstreamCRDVersion: reported },
      },
      fieldManager,
    );
  };
  await writeStatus(true);
  const timer = setInterval(() => {
    writeStatus(true).catch((err: Error) => opts.log?.(`${provider.name}: heartbeat failed: ${err.message}`));
  }, opts.heartbeatMs ?? 30_000);
  timer.unref();
  // The CRD is checked more often than the heartbeat and reported as soon as it changes: deployments
  // waiting for "CRD not installed" then proceed within seconds of `kubectl apply` of the CRD.
  const crdTimer = setInterval(() => {
    installedVersion()
      .then((current) => (current !== reported ? writeStatus(true, current) : undefined))
      .catch((err: Error) => opts.log?.(`${provider.name}: CRD check failed: ${err.message}`));
  }, opts.crdCheckMs ?? 5_000);
  crdTimer.unref();

  return {
    async stop() {
      clearInterval(timer);
      clearInterval(crdTimer);
      await writeStatus(false).catch((err: Error) => opts.log?.(`${provider.name}: could not mark not ready: ${err.message}`));
    },
  };
}
