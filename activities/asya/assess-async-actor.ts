import { ASYA_FINALIZER } from '../../api/asya/constants.ts';
import { modeOf } from '../../api/asya/mode.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import { validateAsyncActor } from '../../api/asya/validate.ts';
import type { AsyaActivities } from '../../contract/asya-activities.ts';
import { passGates } from '../kind/assess-gates.ts';
import type { AsyaClients } from './asya-clients.ts';

/** What the actor's pass decides on; a valid actor gets its finalizer before anything exists that deletion must release (a queue, an injection). */
export function assessAsyncActor(asya: AsyaClients): AsyaActivities['assessAsyncActor'] {
  return async function assessAsyncActor(ref) {
    const seenOf = (obj: AsyncActor) => ({ mode: modeOf(obj.spec ?? {}), hasFinalizer: (obj.metadata.finalizers ?? []).includes(ASYA_FINALIZER) });
    const gate = await passGates(asya.actors, ref, seenOf, validateAsyncActor);
    if ('stop' in gate) return gate.stop;
    const { seen } = gate;
    if (!seen.hasFinalizer) await asya.actors.setFinalizer(ref, ASYA_FINALIZER, true);
    return { ...seen, hasFinalizer: true };
  };
}
