// Applies the RBAC part of the rendered install for real (namespace, ServiceAccounts, roles, bindings)
// and removes it again. The namespace is removed only when this created it (another test file may have
// made it first, e.g. a webhook started with the default namespace), and then waited for, so the next
// file can create it anew.

import { eventually } from '../support/env.ts';
import { kubectl, kubectlOk } from './kubectl.ts';
import { RBAC_KINDS, toYaml, type Manifest } from './manifests.ts';
import { SYSTEM_NAMESPACE } from './service-account.ts';

export interface Installed {
  manifests: Manifest[];
  remove(): Promise<void>;
}

export async function applyRbac(manifests: readonly Manifest[]): Promise<Installed> {
  const created = await ensureNamespace();
  const rbac = manifests.filter((m) => RBAC_KINDS.has(m.kind) && !(m.kind === 'Namespace' && m.metadata.name === SYSTEM_NAMESPACE));
  await kubectlOk(['apply', '-f', '-'], { input: toYaml(rbac) });
  return {
    manifests: rbac,
    async remove() {
      await kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: toYaml(rbac) });
      if (created) await removeNamespace();
    },
  };
}

/** Creates kubeairunway-system unless it exists (waiting out a deletion in progress); true when created here. */
export async function ensureNamespace(namespace = SYSTEM_NAMESPACE): Promise<boolean> {
  await eventually(`namespace ${namespace} to be usable`, async () => (await namespacePhase(namespace)) !== 'Terminating', 120_000, 500);
  if (await namespacePhase(namespace)) return false;
  await kubectlOk(['create', 'namespace', namespace]);
  return true;
}

export async function removeNamespace(namespace = SYSTEM_NAMESPACE): Promise<void> {
  await kubectl(['delete', 'namespace', namespace, '--ignore-not-found', '--wait=false']);
  await eventually(`namespace ${namespace} to be gone`, async () => (await namespacePhase(namespace)) === undefined, 120_000, 500);
}

async function namespacePhase(namespace: string): Promise<string | undefined> {
  const r = await kubectl(['get', 'namespace', namespace, '-o', 'jsonpath={.status.phase}']);
  return r.code === 0 ? r.stdout.trim() : undefined;
}
