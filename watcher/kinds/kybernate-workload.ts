import { CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION, WORKLOAD_KIND, WORKLOAD_LABEL, WORKLOAD_PLURAL } from '../../api/kybernate/constants.ts';
import { specFingerprint } from '../fingerprint.ts';
import type { WatchedKind } from '../watched-kind.ts';
import { kindIdentity } from './kind-identity.ts';

/**
 * KybernateWorkloads (seed 003 §3.3): long-lived workflows. Their pod and the KybernateCheckpoint of
 * each suspend carry the workload's label and its controller ownerReference: the pod's readiness and
 * the checkpoint's progress wake the workload. Requests reach the workflow as signals from the
 * activator (activator/), not through the watch.
 */
export const kybernateWorkloadKind: WatchedKind = {
  ...kindIdentity(WORKLOAD_KIND, 'kybernateWorkloadWorkflow', { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: WORKLOAD_PLURAL }),
  fingerprint: specFingerprint,
  // No finalizer: a workload the workflow has not written status to yet is new.
  isNew: (w) => w.status === undefined,
  children: [
    { group: '', version: 'v1', plural: 'pods', labelSelector: WORKLOAD_LABEL },
    { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, labelSelector: WORKLOAD_LABEL },
  ],
};
