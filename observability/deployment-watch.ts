// Keeps the ModelDeployments of the watched namespaces in memory for the deployment gauges. The
// collections are the process's shared ones (kube/informer-set.ts): the watcher and the core read the
// same cache, so the gauges cost no list or watch of their own, and a scrape never lists from the API
// server. In a process that runs only a provider the set holds them for the gauges alone.

import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../api/constants.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import type { SampledDeployment } from './deployment-samples.ts';

export interface DeploymentWatch {
  deployments(): SampledDeployment[];
}

/** Registers the deployment collections in the set; whoever starts the set fills them. */
export function watchDeployments(opts: { informers: InformerSet; namespaces?: readonly string[] }): DeploymentWatch {
  const collections = (opts.namespaces ?? [undefined]).map((namespace) =>
    opts.informers.collection('ModelDeployment', { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace }),
  );
  return { deployments: () => collections.flatMap((c) => c.informer.list()) };
}
