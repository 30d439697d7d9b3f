import { FINALIZER, PAUSE_ANNOTATION } from '../api/constants.ts';
import type { AnyObject } from '../kube/custom-objects.ts';

/**
 * What about a ModelDeployment should wake its workflow. Status-only updates (our own writes) leave
 * it unchanged, so they cause no signal: otherwise every status write would trigger another pass.
 */
export function deploymentFingerprint(obj: AnyObject): string {
  const m = obj.metadata ?? {};
  return JSON.stringify([
    m.generation ?? 0,
    m.deletionTimestamp ?? '',
    m.annotations?.[PAUSE_ANNOTATION] ?? '',
    (m.finalizers ?? []).includes(FINALIZER),
    Object.entries(m.labels ?? {}).sort(),
  ]);
}
