// Names of the FlameCluster kind (seed 004): its API group, and the labels, annotations and keys its
// children carry. Kept apart from api/constants.ts: Flame is its own API group, not kubeairunway.ai.

import { kindNames } from '../common/kind-names.ts';

export const FLAME_CLUSTER = kindNames({ group: 'flame.xflops.io', version: 'v1alpha1', kind: 'FlameCluster', plural: 'flameclusters', singular: 'flamecluster', shortNames: ['fc'] });
export const { group: FLAME_GROUP, version: FLAME_VERSION, apiVersion: FLAME_API_VERSION, kind: FLAME_CLUSTER_KIND, plural: FLAME_CLUSTER_PLURAL } = FLAME_CLUSTER;

/** On every child (ConfigMap, Services, Pods): the name of the FlameCluster that owns it. */
export const FLAME_CLUSTER_LABEL = 'flame.xflops.io/cluster';
/** On executor pods: their index 0..replicas-1, so scaling knows which ones to keep. */
export const POD_INDEX_LABEL = 'flame.xflops.io/pod-index';
/** On pods: the hash of the flame-cluster.yaml they started with; a different hash means the pod is stale. */
export const CONFIG_HASH_ANNOTATION = 'flame.xflops.io/config-hash';
/**
 * On pods: the hash of the pod spec we rendered. Pod specs are immutable (resources, env, probes), so a
 * change there can only reach a pod by recreating it; the config hash alone would miss it.
 */
export const SPEC_HASH_ANNOTATION = 'flame.xflops.io/spec-hash';

/** Field manager of our server-side applies to Flame children and FlameCluster status. */
export const FLAME_FIELD_MANAGER = 'kubeairunway-flame';

/** Key of the ConfigMap that holds Flame's configuration, and the file name it is mounted as. */
export const CONFIG_FILE_KEY = 'flame-cluster.yaml';
