import { ARTIFACTS_FINALIZER, CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION } from '../../api/kybernate/constants.ts';
import { K8sName, K8sNamespace } from '../../workflows/engine/search-attributes.ts';
import { specFingerprint } from '../fingerprint.ts';
import type { WatchedKind } from '../watched-kind.ts';

/** KybernateCheckpoints (seed 003): one-shot dumps of a pod's container on its node. */
export const kybernateCheckpointKind: WatchedKind = {
  kind: CHECKPOINT_KIND,
  workflowType: 'kybernateCheckpointWorkflow',
  collection: { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL },
  startAttributes: (ref) => [
    { key: K8sNamespace, value: ref.namespace },
    { key: K8sName, value: ref.name },
  ],
  fingerprint: specFingerprint,
  isNew: (cp) => !cp.metadata?.finalizers?.includes(ARTIFACTS_FINALIZER),
};
