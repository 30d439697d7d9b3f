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
