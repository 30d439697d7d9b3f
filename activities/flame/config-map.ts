import { CONFIG_HASH_ANNOTATION } from '../../api/flame/constants.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { applyChild, CONFIG_MAPS, nameOf, type FlameClients } from './flame-clients.ts';

/** On the ConfigMap: how many times the rendered configuration changed, reported as `status.configGeneration`. */
const CONFIG_GENERATION_ANNOTATION = 'flame.xflops.io/config-generation';

/**
 * Whether the rendered configuration differs from the last one written, and its generation. The
 * ConfigMap records both (annotations); when it is gone (deleted by hand), the pods' config-hash and the
 * status's configGeneration say what was last written, so recreating the same configuration is no change.
 */
export function configVersion(current: AnyObject | undefined, pods: AnyObject[], cluster: FlameCluster, hash: string): { configChanged: boolean; configGeneration: number } {
  const annotations = current?.metadata?.annotations;
  const previousHash = current ? annotations?.[CONFIG_HASH_ANNOTATION] : pods.map((p) => p.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).find(Boolean);
  const previousGeneration = current ? Number(annotations?.[CONFIG_GENERATION_ANNOTATION] ?? 0) : (cluster.status?.configGeneration ?? 0);
  const configChanged = previousHash !== hash;
  return { configChanged, configGeneration: configChanged ? previousGeneration + 1 : previousGeneration };
}

/** The configuration, applied first: pods started from now on mount what it says. Returns its generation and the change made, if any. */
export async function applyConfigMap(
  flame: FlameClients,
  ref: ReadRef,
  cluster: FlameCluster,
  existingPods: AnyObject[],
  rendered: { configMap: AnyObject; configHash: string },
): Promise<{ configGeneration: number; change?: string }> {
  const { configMap, configHash } = rendered;
  const configRef = { ...CONFIG_MAPS, namespace: ref.namespace, name: nameOf(configMap) };
  const current = await kubeCall('read ConfigMap', () => flame.objects.get(configRef));
  const { configChanged, configGeneration } = configVersion(current, existingPods, cluster, configHash);
  const annotations = { ...configMap.metadata?.annotations, [CONFIG_HASH_ANNOTATION]: configHash, [CONFIG_GENERATION_ANNOTATION]: String(configGeneration) };
  await applyChild(flame, CONFIG_MAPS, { ...configMap, metadata: { ...configMap.metadata, annotations } });
  if (!current) return { configGeneration, change: `created ConfigMap ${configRef.name} (config generation ${configGeneration})` };
  if (configChanged) return { configGeneration, change: `updated ConfigMap ${configRef.name} (config generation ${configGeneration})` };
  return { configGeneration };
}
