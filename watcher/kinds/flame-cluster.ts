import { FLAME_CLUSTER_KIND, FLAME_CLUSTER_LABEL, FLAME_CLUSTER_PLURAL, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import { specFingerprint } from '../fingerprint.ts';
import type { WatchedKind } from '../watched-kind.ts';
import { kindIdentity } from './kind-identity.ts';

/**
 * FlameClusters (seed 004): the workflow owns a ConfigMap, two Services and raw Pods, all labelled with
 * the cluster's name; any change of one (a pod's readiness, a deletion, an edit) wakes its owner.
 */
export const flameClusterKind: WatchedKind = {
  ...kindIdentity(FLAME_CLUSTER_KIND, 'flameClusterWorkflow', { group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL }),
  fingerprint: specFingerprint,
  // No finalizer: a cluster the workflow has not written status to yet is new.
  isNew: (fc) => fc.status === undefined,
  children: [
    { group: '', version: 'v1', plural: 'pods', labelSelector: FLAME_CLUSTER_LABEL },
    { group: '', version: 'v1', plural: 'services', labelSelector: FLAME_CLUSTER_LABEL },
    { group: '', version: 'v1', plural: 'configmaps', labelSelector: FLAME_CLUSTER_LABEL },
  ],
};
