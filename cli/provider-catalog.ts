// The providers the offline commands reason about: the built-in ones, with InferenceProviderConfigs from
// `--provider-config` files replacing a built-in config of the same name or adding a third-party one.
// Offline there is no provider worker to report readiness, so a config without status.ready counts as
// ready; a file can set `status.ready: false` to see what happens when a provider is down.

import { findProvider, builtinProviders, type ProviderDefinition } from '../providers/index.ts';
import type { InferenceProviderConfig } from '../api/types.ts';
import { readManifests } from './documents.ts';
import type { CliIO } from './io.ts';
import { toProviderConfigs } from './objects.ts';

export interface ProviderCatalog {
  /** What selection sees, in name order. */
  configs: InferenceProviderConfig[];
  /** The built-in implementation (render, compatibility), if there is one. */
  definition(name: string): ProviderDefinition | undefined;
  names: string[];
}

export async function loadProviderCatalog(io: CliIO, configFiles: readonly string[] = []): Promise<ProviderCatalog> {
  const fromFiles = toProviderConfigs(await readManifests(io, configFiles));
  const byName = new Map<string, InferenceProviderConfig>();
  for (const provider of builtinProviders) byName.set(provider.name, provider.config);
  for (const config of fromFiles) byName.set(config.metadata.name ?? '', config);

  const configs = [...byName.keys()].sort().map((name) => assumeReady(byName.get(name)!));
  return { configs, definition: findProvider, names: configs.map((c) => c.metadata.name ?? '') };
}

function assumeReady(config: InferenceProviderConfig): InferenceProviderConfig {
  if (config.status?.ready !== undefined) return config;
  return { ...config, status: { ...config.status, ready: true } };
}
