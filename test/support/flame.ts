// FlameClusters on the test stack: create, read, patch, and wait for their status and children.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { FLAME_CLUSTER_LABEL, FLAME_CLUSTER_PLURAL, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { eventually, kubeConfig } from './env.ts';

const objects = () => new CustomObjects(kubeConfig());
const FC = { group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL };
export const CORE = (plural: 'pods' | 'services' | 'configmaps') => ({ group: '', version: 'v1', plural });

/** The README's example, renamed and with its replica count, in a namespace. */
export function flameExample(namespace: string, name: string, replicas = 3): FlameCluster {
  const fc = parse(readFileSync(new URL('../../examples/flame-cluster.yaml', import.meta.url), 'utf8')) as FlameCluster;
  fc.metadata = { name, namespace };
  fc.spec.executorManager.replicas = replicas;
  return fc;
}

export async function createFlameCluster(fc: FlameCluster): Promise<FlameCluster> {
  return (await objects().apply({ ...FC, namespace: fc.metadata.namespace!, name: fc.metadata.name }, fc as unknown as AnyObject, 'flame-e2e')) as unknown as FlameCluster;
}

export async function getFlameCluster(namespace: string, name: string): Promise<FlameCluster | undefined> {
  return (await objects().get({ ...FC, namespace, name })) as unknown as FlameCluster | undefined;
}

export async function patchFlameCluster(namespace: string, name: string, patch: object): Promise<void> {
  await objects().mergePatch({ ...FC, namespace, name }, patch);
}

export async function deleteFlameCluster(namespace: string, name: string): Promise<void> {
  await objects().delete({ ...FC, namespace, name });
}

export async function waitForFlameCluster(namespace: string, name: string, what: string, check: (fc: FlameCluster) => boolean, timeoutMs = 60_000): Promise<FlameCluster> {
  return eventually(`FlameCluster ${name}: ${what}`, async () => {
    const fc = await getFlameCluster(namespace, name);
    return fc && check(fc) ? fc : undefined;
  }, timeoutMs);
}

/** The children of one cluster, of one type, by the label they all carry, sorted by name. */
export async function childrenOf(namespace: string, cluster: string, plural: 'pods' | 'services' | 'configmaps'): Promise<AnyObject[]> {
  const items = await objects().list({ ...CORE(plural), namespace, labelSelector: `${FLAME_CLUSTER_LABEL}=${cluster}` });
  return items.sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

export const namesOf = (items: AnyObject[]) => items.map((o) => o.metadata!.name!);
