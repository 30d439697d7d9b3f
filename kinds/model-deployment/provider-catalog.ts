// The providers the offline commands reason about: the built-in ones (or, with `explain --cluster`, the
// cluster's), with InferenceProviderConfigs from `--provider-config` files replacing a config of the
// same name or adding a third-party one. Offline there is no provider worker to report readiness, so a
// built-in or file config without status.ready counts as ready; a file can set `status.ready: false` to
// see what happens when a provider is down. Cluster configs keep the readiness their providers report.

import { findProvider, builtinProviders, type ProviderDefinition } from '../../providers/index.ts';
import type { InferenceProviderConfig } from '../../api/types.ts';
import { readManifests } from '../../present/documents.ts';
import type { CliIO } from '../../cli/io.ts';
import { toProviderConfigs } from './objects.ts';

export interface ProviderCatalog {
  /** What selection sees, in name order. */
  configs: InferenceProviderConfig[];
  /** The built-in implementation (render, compatibility), if there is one. */
  definition(name: string): ProviderDefinition | undefined;
  names: string[];
}

/**
 * `base`: the configs to start from instead of the built-in ones (the cluster's), taken as they are.
 */
export async function loadProviderCatalog(io: CliIO, configFiles: readonly string[] = [], base?: readonly InferenceProviderConfig[]): Promise<ProviderCatalog> {
  const fromFiles = toProviderConfigs(await readManifests(io, configFiles));
  const byName = new Map<string, InferenceProviderConfig>();
  if (base) for (const config of base) byName.set(config.metadata.name ?? '', config);
  else for (const provider of builtinProviders) byName.set(provider.name, assumeReady(provider.config));
  for (const config of fromFiles) byName.set(config.metadata.name ?? '', assumeReady(config));

  const configs = [...byName.keys()].sort().map((name) => byName.get(name)!);
  return { configs, definition: findProvider, names: configs.map((c) => c.metadata.name ?? '') };
}

function assumeReady(config: InferenceProviderConfig): InferenceProviderConfig {
  if (config.status?.ready !== undefined) return config;
  return { ...config, status: { ...config.status, ready: true } };
}
