import { ARTIFACTS_FINALIZER } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import { validateKybernateCheckpoint } from '../../api/kybernate/validate.ts';
import type { CheckpointActivities } from '../../contract/kybernate-activities.ts';
import { passGates } from '../kind/assess-gates.ts';
import type { KindClient } from '../kind/kind-client.ts';

/** What the checkpoint's pass decides on; a valid one gets its finalizer before anything exists on a node that deletion must remove. */
export function assessCheckpoint(checkpoints: KindClient<KybernateCheckpoint>): CheckpointActivities['assessCheckpoint'] {
  return async function assessCheckpoint(ref) {
    const gate = await passGates(checkpoints, ref, seenOf, validateKybernateCheckpoint);
    if ('stop' in gate) return gate.stop;
    const { seen, checked } = gate;
    if (!seen.hasFinalizer) await checkpoints.setFinalizer(ref, ARTIFACTS_FINALIZER, true);
    const { spec } = checked.checkpoint;
    return { ...seen, hasFinalizer: true, leaveRunning: spec.leaveRunning, timeoutSeconds: spec.timeout, ...(spec.gpu.enabled && spec.gpu.pluginPath ? { gpuPluginPath: spec.gpu.pluginPath } : {}) };
  };
}

/** What the checkpoint's status has recorded so far, and whether it holds the finalizer. */
function seenOf(cp: KybernateCheckpoint) {
  return {
    hasFinalizer: (cp.metadata.finalizers ?? []).includes(ARTIFACTS_FINALIZER),
    ...(cp.status?.phase ? { phase: cp.status.phase } : {}),
    ...(cp.status?.checkpointRef ? { checkpointRef: cp.status.checkpointRef } : {}),
    ...(cp.status?.nodeName ? { nodeName: cp.status.nodeName } : {}),
  };
}
