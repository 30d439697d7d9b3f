import { ARTIFACTS_FINALIZER, CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION } from '../../api/kybernate/constants.ts';
import { specFingerprint } from '../fingerprint.ts';
import type { WatchedKind } from '../watched-kind.ts';
import { kindIdentity } from './kind-identity.ts';

/** KybernateCheckpoints (seed 003): one-shot dumps of a pod's container on its node. */
export const kybernateCheckpointKind: WatchedKind = {
  ...kindIdentity(CHECKPOINT_KIND, 'kybernateCheckpointWorkflow', { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL }),
  fingerprint: specFingerprint,
  isNew: (cp) => !cp.metadata?.finalizers?.includes(ARTIFACTS_FINALIZER),
};
