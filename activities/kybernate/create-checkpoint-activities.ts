import { ARTIFACTS_FINALIZER, READY_CONDITION } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import type { CheckpointActivities } from '../../contract/kybernate-activities.ts';
import type { KindClient, KindClientParts } from '../kind/kind-client.ts';
import { assessCheckpoint } from './assess-checkpoint.ts';
import { KYBERNATE_CHECKPOINT } from './kinds.ts';
import { kybernateClient, type KybernateActivityDeps } from './kybernate-clients.ts';
import { resolveCheckpointPod } from './resolve-checkpoint-pod.ts';

export type CheckpointActivityDeps = KybernateActivityDeps;

/** The checkpoint's status: its fields and Ready, written when changed. */
export function writeCheckpointStatus(checkpoints: KindClient<KybernateCheckpoint>): CheckpointActivities['writeCheckpointStatus'] {
  return async function writeCheckpointStatus(ref, input) {
    const cp = await checkpoints.read(ref);
    if (!cp) return;
    const { ready, ...fields } = input;
    await checkpoints.writeConditions(ref, cp, fields, [{ type: READY_CONDITION, ...ready }]);
  };
}

/** The checkpoint's cluster-side steps: reading it, finding its pod's container, status, finalizer, events. */
export function createCheckpointActivities(deps: CheckpointActivityDeps, parts?: KindClientParts): CheckpointActivities {
  const checkpoints = kybernateClient<KybernateCheckpoint>(KYBERNATE_CHECKPOINT, deps, parts);
  return {
    assessCheckpoint: assessCheckpoint(checkpoints),
    resolveCheckpointPod: resolveCheckpointPod(checkpoints),
    writeCheckpointStatus: writeCheckpointStatus(checkpoints),
    removeCheckpointFinalizer: (ref) => checkpoints.setFinalizer(ref, ARTIFACTS_FINALIZER, false),
    recordCheckpointEvent: (ref, event) => checkpoints.record(ref, event),
  };
}
