import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { ARTIFACTS_FINALIZER, CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION } from '../../api/kybernate/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { K8sName, K8sNamespace } from '../../workflows/engine/search-attributes.ts';
import type { WatchedKind } from '../watched-kind.ts';

/** Spec edits, pausing and deletion wake a checkpoint's workflow; its status and finalizer writes do not. */
function checkpointFingerprint(obj: AnyObject): string {
  const m = obj.metadata ?? {};
  return JSON.stringify([m.generation ?? 0, m.deletionTimestamp ?? '', m.annotations?.[PAUSE_ANNOTATION] ?? '']);
}

/** KybernateCheckpoints (seed 003): one-shot dumps of a pod's container on its node. */
export const kybernateCheckpointKind: WatchedKind = {
  kind: CHECKPOINT_KIND,
  workflowType: 'kybernateCheckpointWorkflow',
  collection: { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL },
  startAttributes: (ref) => [
    { key: K8sNamespace, value: ref.namespace },
    { key: K8sName, value: ref.name },
  ],
  fingerprint: checkpointFingerprint,
  isNew: (cp) => !cp.metadata?.finalizers?.includes(ARTIFACTS_FINALIZER),
};
