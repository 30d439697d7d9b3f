// Compatibility checks shared by all providers, derived from the provider's own InferenceProviderConfig
// capabilities so the table of what a provider supports lives in one place. The messages are those of
// the seeds' provider-compatibility table (seed 001 §8, seed 000 "Validation Webhook").

import { checkOverrides } from '../../api/overrides.ts';
import type { OverrideSchema } from '../../api/overrides.ts';
import type { InferenceProviderConfig, ModelDeployment } from '../../api/types.ts';
import { ValidationMessage } from '../../api/validation-messages.ts';
import type { CompatibilityResult } from '../contract.ts';
import { requestsGpu, resolveSpec } from './spec.ts';
import type { ResolvedSpec } from './spec.ts';

export const compatibilityMessages = {
  engine: (provider: string, engine: string): string => `${provider} does not support ${engine} engine`,
  mode: (provider: string, mode: string): string => `${provider} does not support ${mode} mode`,
  // Seed 001 §8 gives the longer text; seed 000's table has the same words without the hint.
  requiresGpu: (provider: string): string => `${provider} requires GPU (set resources.gpu.count > 0)`,
  noGpuSupport: (provider: string): string => `${provider} does not support GPU inference`,
} as const;

export interface ProviderIdentity {
  displayName: string;
  config: InferenceProviderConfig;
  overrideSchema: OverrideSchema;
}

/** Checks engine, serving mode, GPU/CPU and overrides; `extra` adds provider-specific rules. */
export function checkCompatibility(
  md: ModelDeployment,
  provider: ProviderIdentity,
  extra?: (spec: ResolvedSpec) => { errors?: string[]; warnings?: string[] },
): CompatibilityResult {
  const spec = resolveSpec(md);
  const caps = provider.config.spec.capabilities ?? {};
  const errors: string[] = [];
  const warnings: string[] = [];

  if (spec.engine === undefined) errors.push(ValidationMessage.engineTypeRequired);
  else if (!(caps.engines ?? []).includes(spec.engine)) errors.push(compatibilityMessages.engine(provider.displayName, spec.engine));

  if (!(caps.servingModes ?? []).includes(spec.mode)) errors.push(compatibilityMessages.mode(provider.displayName, spec.mode));

  const gpu = requestsGpu(spec);
  if (!gpu && caps.cpuSupport !== true) errors.push(compatibilityMessages.requiresGpu(provider.displayName));
  if (gpu && caps.gpuSupport !== true) errors.push(compatibilityMessages.noGpuSupport(provider.displayName));

  const overrides = checkOverrides(md.spec?.provider?.overrides ?? {}, provider.overrideSchema);
  errors.push(...overrides.errors.map((e) => e.message));
  warnings.push(...overrides.warnings.map((w) => w.message));

  if (extra) {
    const more = extra(spec);
    errors.push(...(more.errors ?? []));
    warnings.push(...(more.warnings ?? []));
  }
  return { compatible: errors.length === 0, errors, warnings };
}
