// What the core reads of a provider from its InferenceProviderConfig: whether its worker reported its CRD
// missing, and whether a worker serves it at all. The core knows no provider beyond these reports.
import type { Assessment } from '../../contract/core-activities.ts';
import { installedProviderCrds, unreportedProviders, withStaleProvidersNotReady } from '../../providers/provider-configs.ts';
import type { CoreClients } from './core-clients.ts';

/** Whether `provider`'s worker reports its CRD missing (a provider nobody reported on says nothing about a CRD). */
export async function providerCrdMissing(core: CoreClients, provider: string | undefined): Promise<boolean> {
  if (!provider) return false;
  const config = (await core.providerConfigs.list()).find((c) => c.metadata.name === provider);
  return config !== undefined && unreportedProviders([config]).length === 0 && installedProviderCrds([config]).length === 0;
}

/** Whether a worker serves `provider` (see Assessment.leaving): the switch need not wait for a cleanup nobody can run. */
export async function leavingProvider(core: CoreClients, provider: string): Promise<NonNullable<Assessment['leaving']>> {
  const configs = await core.providerConfigs.list();
  const config = withStaleProvidersNotReady(configs, Date.now(), core.staleAfterMs).find((c) => c.metadata.name === provider);
  return { provider, reported: config !== undefined && unreportedProviders([config]).length === 0, served: config?.status?.ready === true };
}
