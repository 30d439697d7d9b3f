import { PAUSE_ANNOTATION } from '../api/constants.ts';
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
    Object.entries(m.labels ?? {}).sort(),
  ]);
}

/**
 * What about an object of the engine's other kinds wakes its workflow: spec edits (generation), pausing
 * and deletion; its own status writes do not.
 */
export function specFingerprint(obj: AnyObject): string {
  const m = obj.metadata ?? {};
  return JSON.stringify([m.generation ?? 0, m.deletionTimestamp ?? '', m.annotations?.[PAUSE_ANNOTATION] ?? '']);
}

/**
 * What about an InferenceProviderConfig can change a deployment's course: its spec, readiness and the
 * CRD version it reports. The heartbeat (`lastHeartbeat`) is left out, or every heartbeat would wake
 * every deployment of that provider.
 */
export function providerConfigFingerprint(obj: AnyObject): string {
  const status = (obj.status ?? {}) as { ready?: boolean; upstreamCRDVersion?: string };
  return JSON.stringify([obj.metadata?.generation ?? 0, status.ready ?? null, status.upstreamCRDVersion ?? null]);
}

/**
 * What about a child resource (a provider's resource, a Pod, a Service, a ConfigMap) its owner's
 * workflow must see: spec and data edits (generation, for kinds that have one), labels, deletion and
 * status. Bookkeeping annotations are left out, so the apply that records them wakes nobody again.
 */
export function childFingerprint(obj: AnyObject): string {
  const m = obj.metadata ?? {};
  return JSON.stringify([m.generation ?? 0, m.deletionTimestamp ?? '', Object.entries(m.labels ?? {}).sort(), obj.spec ?? null, obj.data ?? null, obj.status ?? null]);
}
