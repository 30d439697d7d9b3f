import type { KubeConfig } from '@kubernetes/client-node';
import { CONTROLLER_FIELD_MANAGER } from '../../api/constants.ts';
import type { InferenceProviderConfig, ModelDeployment } from '../../api/types.ts';
import type { CustomObjects } from '../../kube/custom-objects.ts';
import type { EventRecorder } from '../../kube/events.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { secretExists } from '../../kube/secret-exists.ts';
import { PROVIDER_STALE_AFTER_MS } from '../../providers/provider-liveness.ts';
import { MODEL_DEPLOYMENT, PROVIDER_CONFIG } from '../deployment-ref.ts';
import { KindClient } from '../kind/kind-client.ts';

export interface CoreActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: reads come from their caches when those can answer. */
  informers?: InformerSet;
  /** A provider whose heartbeat is older than this counts as not ready (it may have crashed without saying so). */
  providerStaleAfterMs?: number;
  /** Providers whose workers run in this process (see Assessment.inProcessProviders). */
  inProcessProviders?: readonly string[];
}

/** What the core's activities share: the two kinds it reads, the Secret check, and how it judges a provider's heartbeat. */
export interface CoreClients {
  deployments: KindClient<ModelDeployment>;
  providerConfigs: KindClient<InferenceProviderConfig>;
  secretExists: (namespace: string, name: string) => Promise<boolean>;
  staleAfterMs: number;
  inProcessProviders: readonly string[];
}

/** The shared parts a test hands in instead of the ones built on `kc`. */
export interface CoreClientParts {
  objects?: CustomObjects;
  recorder?: EventRecorder;
  secretExists?: CoreClients['secretExists'];
}

export function coreClients(deps: CoreActivityDeps, parts: CoreClientParts = {}): CoreClients {
  const shared = { kc: deps.kc, informers: deps.informers, fieldManager: CONTROLLER_FIELD_MANAGER };
  const deployments = new KindClient<ModelDeployment>(MODEL_DEPLOYMENT, { ...shared, objects: parts.objects, recorder: parts.recorder });
  return {
    deployments,
    providerConfigs: new KindClient<InferenceProviderConfig>(PROVIDER_CONFIG, { ...shared, objects: deployments.objects }),
    secretExists: parts.secretExists ?? ((namespace, name) => secretExists(deps.kc, namespace, name)),
    staleAfterMs: deps.providerStaleAfterMs ?? PROVIDER_STALE_AFTER_MS,
    inProcessProviders: deps.inProcessProviders ?? [],
  };
}
