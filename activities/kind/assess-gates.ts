// The first questions of every pass that assesses its object, asked in one order: is it gone, being
// deleted, paused (the annotation), invalid (then refused: an Event and a status message)? An object
// that passes them all is its kind's to look at further. AsyncActor and the Kybernate kinds share them.

import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { KindClient, KindObject } from './kind-client.ts';

/** What every assessment says of an object it found, beside the kind's own fields. */
export type Seen<Own> = Own & { found: true; generation?: number; resourceVersion?: string };

/** The answer of a gate that ends the pass's assessment. */
export type Stopped<Own> = { found: false } | (Seen<Own> & ({ deleting: true; deletionTimestamp: string } | { paused: true } | { invalid: string }));

/**
 * The object through the gates: `stop` when one answers, else what was seen and the valid validation.
 * `own` says what the kind's assessment reports of any object it found (asked before the gates).
 */
export async function passGates<T extends KindObject & { metadata: { annotations?: Record<string, string> } }, Own extends object, Valid>(
  client: KindClient<T>,
  ref: ReadRef,
  own: (obj: T) => Own | Promise<Own>,
  validate: (obj: T) => ({ valid: true } & Valid) | { valid: false; message: string },
): Promise<{ stop: Stopped<Own> } | { seen: Seen<Own>; checked: Valid }> {
  const obj = await client.read(ref);
  if (!obj) return { stop: { found: false } };
  const m = obj.metadata;
  const seen: Seen<Own> = { found: true, generation: m.generation, resourceVersion: m.resourceVersion, ...(await own(obj)) };
  if (m.deletionTimestamp) return { stop: { ...seen, deleting: true, deletionTimestamp: m.deletionTimestamp } };
  if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { stop: { ...seen, paused: true } };
  const checked = validate(obj);
  if (!checked.valid) {
    client.refuse(ref, checked.message);
    return { stop: { ...seen, invalid: checked.message } };
  }
  return { seen, checked };
}
