import type { InferenceProviderConfig } from '../api/types.ts';

/**
 * Providers whose upstream CRD is installed, as each provider worker reports it in its
 * InferenceProviderConfig (`status.upstreamCRDVersion`, empty when the CRD is missing). The core thus
 * checks "Provider '{name}' CRD not installed in cluster" without knowing any provider's kinds.
 */
export function installedProviderCrds(configs: readonly InferenceProviderConfig[]): string[] {
  return configs.filter((c) => Boolean(c.status?.upstreamCRDVersion)).map((c) => c.metadata.name ?? '');
}

/**
 * Providers whose InferenceProviderConfig no worker has ever reported on (a worker's status write always
 * carries a heartbeat, readiness and the CRD version it found, empty or not; these have none of them):
 * created by hand or by a chart, with no worker running. Their missing `upstreamCRDVersion` says
 * nothing about a CRD, so they are named as unserved, not as "CRD not installed".
 */
export function unreportedProviders(configs: readonly InferenceProviderConfig[]): string[] {
  const reported = (c: InferenceProviderConfig) => Boolean(c.status?.lastHeartbeat) || c.status?.upstreamCRDVersion !== undefined || c.status?.ready !== undefined;
  return configs.filter((c) => !reported(c)).map((c) => c.metadata.name ?? '');
}

/**
 * A provider that stopped heartbeating (a crash skips the "not ready" it writes on shutdown) is not
 * ready. One that never reports a heartbeat is taken at its word.
 */
export function withStaleProvidersNotReady(configs: readonly InferenceProviderConfig[], now: number, staleAfterMs: number): InferenceProviderConfig[] {
  return configs.map((c) => {
    const beat = c.status?.lastHeartbeat ? Date.parse(c.status.lastHeartbeat) : NaN;
    if (!c.status?.ready || !Number.isFinite(beat) || now - beat <= staleAfterMs) return c;
    return { ...c, status: { ...c.status, ready: false } };
  });
}
