import { CHECKPOINT_KIND, CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION, RESTORE_KIND, RESTORE_PLURAL, WORKLOAD_KIND, WORKLOAD_PLURAL } from '../../api/kybernate/constants.ts';
import type { KindIdentity } from '../kind/status-write.ts';

/** The three Kybernate kinds as their activities' clients address them. */
export const KYBERNATE_CHECKPOINT: KindIdentity = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL, kind: CHECKPOINT_KIND };
export const KYBERNATE_RESTORE: KindIdentity = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: RESTORE_PLURAL, kind: RESTORE_KIND };
export const KYBERNATE_WORKLOAD: KindIdentity = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: WORKLOAD_PLURAL, kind: WORKLOAD_KIND };
