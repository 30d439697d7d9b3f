import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { ASYA_FINALIZER } from '../../api/asya/constants.ts';
import { modeOf } from '../../api/asya/mode.ts';
import { validateAsyncActor } from '../../api/asya/validate.ts';
import type { AsyaActivities } from '../../contract/asya-activities.ts';
import type { AsyaClients } from './asya-clients.ts';

/** What the actor's pass decides on; a valid actor gets its finalizer before anything exists that deletion must release (a queue, an injection). */
export function assessAsyncActor(asya: AsyaClients): AsyaActivities['assessAsyncActor'] {
  return async function assessAsyncActor(ref) {
    const obj = await asya.actors.read(ref);
    if (!obj) return { found: false };
    const m = obj.metadata;
    const seen = { found: true, generation: m.generation, resourceVersion: m.resourceVersion, mode: modeOf(obj.spec ?? {}), hasFinalizer: (m.finalizers ?? []).includes(ASYA_FINALIZER) };
    if (m.deletionTimestamp) return { ...seen, deleting: true, deletionTimestamp: m.deletionTimestamp };
    if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { ...seen, paused: true };
    const checked = validateAsyncActor(obj);
    if (!checked.valid) {
      asya.actors.refuse(ref, checked.message);
      return { ...seen, invalid: checked.message };
    }
    if (!seen.hasFinalizer) await asya.actors.setFinalizer(ref, ASYA_FINALIZER, true);
    return { ...seen, hasFinalizer: true };
  };
}
