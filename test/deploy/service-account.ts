// A kubeconfig that authenticates as a ServiceAccount with a real token from the TokenRequest API, the
// way a pod's projected token does: requests are authorized exactly as the deployed process's would be.

import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { kubeConfig } from '../support/env.ts';

import { SYSTEM_NAMESPACE } from '../../api/constants.ts';

export { SYSTEM_NAMESPACE };

export function serviceAccountUser(name: string, namespace = SYSTEM_NAMESPACE): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

export async function serviceAccountKubeConfig(name: string, namespace = SYSTEM_NAMESPACE): Promise<KubeConfig> {
  const admin = kubeConfig();
  const token = await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
    name,
    namespace,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const cluster = admin.getCurrentCluster();
  if (!cluster || !token.status?.token) throw new Error(`no token for ServiceAccount ${namespace}/${name}`);
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ name, token: token.status.token }],
    contexts: [{ name, cluster: cluster.name, user: name }],
    currentContext: name,
  });
  return kc;
}
