import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { ARTIFACTS_FINALIZER } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import { validateKybernateCheckpoint } from '../../api/kybernate/validate.ts';
import type { CheckpointActivities } from '../../contract/kybernate-activities.ts';
import type { KindClient } from '../kind/kind-client.ts';

/** What the checkpoint's pass decides on; a valid one gets its finalizer before anything exists on a node that deletion must remove. */
export function assessCheckpoint(checkpoints: KindClient<KybernateCheckpoint>): CheckpointActivities['assessCheckpoint'] {
  return async function assessCheckpoint(ref) {
    const cp = await checkpoints.read(ref);
    if (!cp) return { found: false };
    const m = cp.metadata;
    const seen = {
      found: true,
      generation: m.generation,
      resourceVersion: m.resourceVersion,
      hasFinalizer: (m.finalizers ?? []).includes(ARTIFACTS_FINALIZER),
      ...(cp.status?.phase ? { phase: cp.status.phase } : {}),
      ...(cp.status?.checkpointRef ? { checkpointRef: cp.status.checkpointRef } : {}),
      ...(cp.status?.nodeName ? { nodeName: cp.status.nodeName } : {}),
    };
    if (m.deletionTimestamp) return { ...seen, deleting: true, deletionTimestamp: m.deletionTimestamp };
    if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { ...seen, paused: true };
    const checked = validateKybernateCheckpoint(cp);
    if (!checked.valid) {
      checkpoints.refuse(ref, checked.message);
      return { ...seen, invalid: checked.message };
    }
    if (!seen.hasFinalizer) await checkpoints.setFinalizer(ref, ARTIFACTS_FINALIZER, true);
    const { spec } = checked.checkpoint;
    return { ...seen, hasFinalizer: true, leaveRunning: spec.leaveRunning, timeoutSeconds: spec.timeout, ...(spec.gpu.enabled && spec.gpu.pluginPath ? { gpuPluginPath: spec.gpu.pluginPath } : {}) };
  };
}
