import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, type AnyObject } from '../kube/custom-objects.ts';
import { readYamlDocuments } from './yaml-cache.ts';

const FIELD_MANAGER = 'kubeairunway-devstack';
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' } as const;

export function readCrdFiles(files: readonly string[]): AnyObject[] {
  return files.flatMap((file) => (readYamlDocuments(file) as (AnyObject | null)[]).filter((crd): crd is AnyObject => crd?.kind === 'CustomResourceDefinition'));
}

/** On each CRD installed here: a hash of what was applied, so an unchanged CRD is not applied again. */
export const APPLIED_HASH_ANNOTATION = 'devstack.kubeairunway.ai/applied-hash';

type LiveCrd = AnyObject & { status?: { conditions?: { type: string; status: string }[] } };
const established = (live: LiveCrd | undefined) => !!live?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');

/**
 * Applies CRDs (server-side apply, so re-running on a reused cluster updates them) and waits until
 * each is Established. The YAML goes to the server as written: client-node's typed models would drop
 * the `x-kubernetes-*` keys (list types, CEL rules, preserve-unknown-fields) they spell differently.
 * A CRD whose live copy carries the hash of the same content is left alone: applying the upstream
 * CRDs again (a restarted `npm run dev`) costs the API server seconds each, for no change.
 */
export async function installCrds(kc: KubeConfig, crds: readonly AnyObject[], timeoutMs = 60_000): Promise<void> {
  const objects = new CustomObjects(kc);
  for (const crd of crds) {
    const ref = { ...CRDS, name: crd.metadata!.name! };
    const hash = createHash('sha256').update(JSON.stringify(crd)).digest('hex');
    const live = (await objects.get(ref)) as LiveCrd | undefined;
    if (live?.metadata?.annotations?.[APPLIED_HASH_ANNOTATION] === hash && !live.metadata.deletionTimestamp && established(live)) continue;
    const annotated = { ...crd, metadata: { ...crd.metadata, annotations: { ...crd.metadata?.annotations, [APPLIED_HASH_ANNOTATION]: hash } } };
    await objects.apply(ref, annotated, FIELD_MANAGER);
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = crd.metadata!.name!;
    for (;;) {
      if (established((await objects.get({ ...CRDS, name })) as LiveCrd | undefined)) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs / 1000}s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
