import { patched } from '@temporalio/workflow';

/**
 * The level of workflow code a run begins at, carried in its input: the watcher starts every workflow
 * at the current level, and continue-as-new begins the next run at it. Level 1 is the first release
 * (v0.1.0), the baseline: its commands are the workflows' only path, with no patch asked.
 *
 * A later change to the commands a workflow issues is guarded by a patch asked with `since` = the next
 * level (docs/code-levels.md): a run that began at that level or higher takes it without asking, an
 * older one asks `patched()`, which answers from its history (and records a marker on a new path).
 * Raising CODE_LEVEL to `since` makes new runs take the change without a marker.
 */
export const CODE_LEVEL = 1;

/** Whether a run that began at `level` takes the change guarded by `patchId`, new at level `since` (2 or more). */
export function takesChange(level: number, patchId: string, since: number): boolean {
  return level >= since || patched(patchId);
}
