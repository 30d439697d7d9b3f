// Keeps the ModelDeployments of the watched namespaces in memory for the deployment gauges. One more
// watch instead of reaching into the watcher's: the metrics then work in a process that runs only a
// core worker or only a provider, and a scrape never lists from the API server.

import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../api/constants.ts';
import type { ModelDeployment } from '../api/types.ts';
import { collectionPath, CustomObjects } from '../kube/custom-objects.ts';
import { resilientInformer } from '../kube/informer.ts';

export interface DeploymentWatch {
  deployments(): ModelDeployment[];
  stop(): Promise<void>;
}

export async function watchDeployments(opts: { kc: KubeConfig; namespaces?: readonly string[]; log?: (line: string) => void }): Promise<DeploymentWatch> {
  const objects = new CustomObjects(opts.kc);
  const informers = (opts.namespaces ?? [undefined]).map((namespace) => {
    const ref = { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace };
    return resilientInformer<KubernetesObject>(opts.kc, collectionPath(ref), async () => (await objects.listRaw(ref)) as never, {
      onError: (err, delay) => opts.log?.(`metrics: ModelDeployment watch failed (${(err as Error).message?.split('\n')[0]}); restarting in ${delay}ms`),
    });
  });
  await Promise.all(informers.map((i) => i.start()));
  return {
    deployments: () => informers.flatMap((i) => i.informer.list() as unknown as ModelDeployment[]),
    stop: async () => {
      await Promise.all(informers.map((i) => i.stop()));
    },
  };
}
