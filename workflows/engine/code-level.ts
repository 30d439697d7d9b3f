import { patched } from '@temporalio/workflow';

/**
 * The level of workflow code a run begins at, carried in its input: the watcher starts every workflow
 * at the current level, and continue-as-new begins the next run at it.
 *
 * Each `patched()` a run asks records a marker and upserts the `TemporalChangeVersion` search
 * attribute: two history events and a visibility write on the server, for every new deployment and
 * every patch on its path. A run that begins at a level knows every change up to that level from its
 * input instead, and asks nothing. Runs begun without a level (recorded histories, workflows started
 * before levels existed) still ask `patched()`, so they replay as recorded and upgrade in place.
 *
 * A later change is guarded by a patch asked with `since` = the next level; raising CODE_LEVEL to it
 * makes new runs take it without a marker.
 */
export const CODE_LEVEL = 3;

/** Whether a run at `level` (undefined: begun before levels) takes the change guarded by `patchId`. */
export function takesChange(level: number | undefined, patchId: string, since = 1): boolean {
  return (level ?? 0) >= since || patched(patchId);
}
