// Provider compatibility at admission, as warnings (the seed's "planned capability", seed 001 §3.3).
// The core knows no provider: everything here comes from the InferenceProviderConfig capabilities the
// providers publish, read with the same meaning as selection gives them (a missing list supports
// nothing, a missing flag is false). Warnings, not denials: the provider itself is the judge and
// reports ProviderCompatible=False; admission only tells the user early.

import { field, requestsGpu, servingMode } from '../api/spec-helpers.ts';
import type { InferenceProviderConfig, ProviderCapabilities } from '../api/types.ts';

export const capabilityWarning = {
  engine: (provider: string, engine: string): string => `Provider '${provider}' does not support ${engine} engine`,
  mode: (provider: string, mode: string): string => `Provider '${provider}' does not support ${mode} mode`,
  requiresGpu: (provider: string): string => `Provider '${provider}' requires GPU (set resources.gpu.count > 0)`,
  noGpu: (provider: string): string => `Provider '${provider}' does not support GPU inference`,
  noneCompatible: (request: string): string => `No compatible provider found for ${request}`,
} as const;

interface Request {
  engine: string | undefined;
  mode: string;
  gpu: boolean;
}

function mismatches(provider: string, caps: ProviderCapabilities, req: Request): string[] {
  const out: string[] = [];
  if (req.engine !== undefined && !(caps.engines ?? []).includes(req.engine)) out.push(capabilityWarning.engine(provider, req.engine));
  if (!((caps.servingModes ?? []) as string[]).includes(req.mode)) out.push(capabilityWarning.mode(provider, req.mode));
  if (req.gpu && caps.gpuSupport !== true) out.push(capabilityWarning.noGpu(provider));
  if (!req.gpu && caps.cpuSupport !== true) out.push(capabilityWarning.requiresGpu(provider));
  return out;
}

/**
 * Warnings for `spec` against the named provider's capabilities, or, when no provider is named yet,
 * one warning if no known provider could be selected at all. A provider without an
 * InferenceProviderConfig gets none here: validation already reports it as not installed.
 */
export function capabilityWarnings(spec: unknown, provider: string | undefined, configs: readonly InferenceProviderConfig[]): string[] {
  const engineValue = field(spec, 'engine', 'type');
  // Without an engine the spec is invalid anyway, and a capability guess would only add noise.
  if (typeof engineValue !== 'string' || engineValue === '') return [];
  const req: Request = { engine: engineValue, mode: servingMode(spec), gpu: requestsGpu(spec) };

  if (provider) {
    const config = configs.find((c) => c.metadata?.name === provider);
    return config ? mismatches(provider, config.spec?.capabilities ?? {}, req) : [];
  }
  if (configs.length === 0) return [];
  const anyFits = configs.some((c) => mismatches(c.metadata?.name ?? '', c.spec?.capabilities ?? {}, req).length === 0);
  return anyFits ? [] : [capabilityWarning.noneCompatible(`engine=${req.engine}, gpu=${req.gpu}, mode=${req.mode}`)];
}
