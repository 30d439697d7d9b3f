// `kar explain --cluster`: the InferenceProviderConfigs the controller would select from, read from the
// cluster instead of the built-in ones. Loaded only when asked for: the offline commands never load the
// Kubernetes client. Readiness is the cluster's own, with the core's rule for a provider whose
// heartbeat stopped (providers/provider-configs.ts), so the answer is the controller's.

import { PROVIDER_CONFIGS } from '../api/constants.ts';
import { withStaleProvidersNotReady } from '../providers/provider-configs.ts';
import { PROVIDER_STALE_AFTER_MS } from '../providers/provider-liveness.ts';
import type { InferenceProviderConfig } from '../api/types.ts';
import type { KubeOptions } from './operator/connection-options.ts';
import { kubeFailure, openKube } from './operator/session.ts';

export interface ClusterProviderConfigs {
  configs: InferenceProviderConfig[];
  /** The API server they were read from, to say so in the output. */
  server: string;
}

export async function readClusterProviderConfigs(opts: KubeOptions): Promise<ClusterProviderConfigs> {
  const session = openKube(opts);
  try {
    const listed = (await session.objects.list(PROVIDER_CONFIGS)) as unknown as InferenceProviderConfig[];
    return { configs: withStaleProvidersNotReady(listed, Date.now(), PROVIDER_STALE_AFTER_MS), server: session.server };
  } catch (err) {
    throw kubeFailure(err, 'list InferenceProviderConfigs', session);
  }
}
