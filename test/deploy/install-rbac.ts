// Applies the RBAC part of the rendered install for real (namespace, ServiceAccounts, roles, bindings)
// and removes it again, waiting for the namespace to be gone so the next test file can create it anew.

import { eventually } from '../support/env.ts';
import { kubectl, kubectlOk } from './kubectl.ts';
import { RBAC_KINDS, toYaml, type Manifest } from './manifests.ts';
import { SYSTEM_NAMESPACE } from './service-account.ts';

export interface Installed {
  manifests: Manifest[];
  remove(): Promise<void>;
}

export async function applyRbac(manifests: readonly Manifest[]): Promise<Installed> {
  const rbac = manifests.filter((m) => RBAC_KINDS.has(m.kind));
  await waitNamespaceGone();
  await kubectlOk(['apply', '-f', '-'], { input: toYaml(rbac) });
  return {
    manifests: rbac,
    async remove() {
      await kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: toYaml(rbac) });
      await waitNamespaceGone();
    },
  };
}

/** A namespace being deleted cannot be created again until the namespace controller has emptied it. */
export async function waitNamespaceGone(namespace = SYSTEM_NAMESPACE): Promise<void> {
  await eventually(`namespace ${namespace} to be gone`, async () => (await kubectl(['get', 'namespace', namespace])).code !== 0, 120_000, 500);
}
