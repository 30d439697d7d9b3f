import { readFileSync } from 'node:fs';
import { ApiextensionsV1Api, KubeConfig, KubernetesObjectApi, PatchStrategy, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';

const FIELD_MANAGER = 'kubeairunway-devstack';

export function readCrdFiles(files: readonly string[]): V1CustomResourceDefinition[] {
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(file, 'utf8'))
      .map((doc) => doc.toJS() as V1CustomResourceDefinition | null)
      .filter((crd): crd is V1CustomResourceDefinition => crd?.kind === 'CustomResourceDefinition'),
  );
}

/** Applies CRDs (server-side apply, so re-running on a reused cluster updates them) and waits until each is Established. */
export async function installCrds(kc: KubeConfig, crds: readonly V1CustomResourceDefinition[], timeoutMs = 60_000): Promise<void> {
  const objects = KubernetesObjectApi.makeApiClient(kc);
  for (const crd of crds) {
    await objects.patch(crd, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
  }
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = crd.metadata!.name!;
    for (;;) {
      const live = await api.readCustomResourceDefinition({ name });
      if (live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs / 1000}s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
