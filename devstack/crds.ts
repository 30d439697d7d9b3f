import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, type AnyObject } from '../kube/custom-objects.ts';
import { readYamlDocuments } from './yaml-cache.ts';

const FIELD_MANAGER = 'kubeairunway-devstack';
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' } as const;

export function readCrdFiles(files: readonly string[]): AnyObject[] {
  return files.flatMap((file) => (readYamlDocuments(file) as (AnyObject | null)[]).filter((crd): crd is AnyObject => crd?.kind === 'CustomResourceDefinition'));
}

/**
 * Applies CRDs (server-side apply, so re-running on a reused cluster updates them) and waits until
 * each is Established. The YAML goes to the server as written: client-node's typed models would drop
 * the `x-kubernetes-*` keys (list types, CEL rules, preserve-unknown-fields) they spell differently.
 */
export async function installCrds(kc: KubeConfig, crds: readonly AnyObject[], timeoutMs = 60_000): Promise<void> {
  const objects = new CustomObjects(kc);
  for (const crd of crds) {
    await objects.apply({ ...CRDS, name: crd.metadata!.name! }, crd, FIELD_MANAGER);
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = crd.metadata!.name!;
    for (;;) {
      const live = (await objects.get({ ...CRDS, name })) as { status?: { conditions?: { type: string; status: string }[] } } | undefined;
      if (live?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs / 1000}s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
